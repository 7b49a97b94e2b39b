import { useState, type ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { ChevronDown, LayoutGrid, LogOut, Menu, ShieldCheck, User, X } from 'lucide-react';
import type { AuthenticatedUser } from '@/domain/accounts/user';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { cn } from '@/lib/cn';
import { Logo } from './Logo';

export interface MenuEntry {
  label: string;
  href: string;
}

interface MenuBarProps {
  user: AuthenticatedUser;
  /** The application the user is in, when there is one. */
  currentApplication?: { name: string; href: string };
  /** Entries only the platform administrator sees (present once their pages exist). */
  adminEntries: MenuEntry[];
  languageSelect: ReactNode;
  status: ReactNode;
  /** Extra entries of the user menu (install, …). */
  menuEntries?: ReactNode;
  onLogout(): void;
}

export function MenuBar({
  user,
  currentApplication,
  adminEntries,
  languageSelect,
  status,
  menuEntries,
  onLogout,
}: MenuBarProps) {
  const { t } = useLingui();
  const [collapsed, setCollapsed] = useState(true);
  const linkClass =
    'inline-flex min-h-11 items-center gap-2 rounded-md px-3 font-medium hover:bg-white/10 [&.active]:bg-white/15';

  return (
    <header className="sticky top-0 z-30 bg-primary text-primary-foreground shadow">
      <nav aria-label={t`Main menu`} className="mx-auto flex max-w-7xl flex-wrap items-center gap-1 px-2 py-1">
        <Link
          to="/applications"
          className="mr-2 inline-flex min-h-11 items-center gap-2 rounded-md px-1 text-lg font-bold"
        >
          <Logo className="size-8" />
          <span>Terrain</span>
        </Link>
        <div className="ml-auto flex items-center md:order-last md:ml-1">{status}</div>
        <Button
          variant="ghost"
          size="icon"
          className="text-primary-foreground hover:bg-white/10 md:hidden"
          aria-expanded={!collapsed}
          aria-controls="menu-entries"
          aria-label={collapsed ? t`Open the menu` : t`Close the menu`}
          onClick={() => setCollapsed((c) => !c)}
        >
          {collapsed ? <Menu aria-hidden /> : <X aria-hidden />}
        </Button>
        <div
          id="menu-entries"
          className={cn(
            'w-full flex-col gap-1 md:flex md:w-auto md:flex-1 md:flex-row md:items-center',
            collapsed ? 'hidden' : 'flex',
          )}
        >
          <Link to="/applications" className={linkClass} activeOptions={{ exact: true }}>
            <LayoutGrid className="size-5" aria-hidden />
            <Trans>Applications</Trans>
          </Link>
          {currentApplication ? (
            // A long name gives way (cut short) rather than pushing the bar onto a second line.
            <a href={currentApplication.href} className={cn(linkClass, 'md:min-w-0')} title={currentApplication.name}>
              <span className="truncate">{currentApplication.name}</span>
            </a>
          ) : null}
          <div className="flex flex-wrap items-center gap-1 md:ml-auto md:shrink-0 md:flex-nowrap">
            <div className="text-primary-foreground [&_button]:text-primary-foreground [&_button:hover]:bg-white/10">
              {languageSelect}
            </div>
            <Badge variant="warning" data-testid="role-label">
              {user.terrainAdmin ? <Trans>super admin</Trans> : <Trans>user</Trans>}
            </Badge>
            <DropdownMenu>
              <DropdownMenuTrigger asChild>
                <Button variant="ghost" className="text-primary-foreground hover:bg-white/10" data-testid="user-menu">
                  <User aria-hidden />
                  <span className="max-w-40 truncate">{user.login}</span>
                  <ChevronDown aria-hidden />
                </Button>
              </DropdownMenuTrigger>
              <DropdownMenuContent align="end">
                <DropdownMenuLabel>{user.email}</DropdownMenuLabel>
                <DropdownMenuSeparator />
                {user.terrainAdmin
                  ? adminEntries.map((entry) => (
                      <DropdownMenuItem key={entry.href} asChild>
                        <a href={entry.href}>
                          <ShieldCheck aria-hidden />
                          {entry.label}
                        </a>
                      </DropdownMenuItem>
                    ))
                  : null}
                <DropdownMenuItem asChild>
                  <Link to="/users/$userIdOrLogin" params={{ userIdOrLogin: user.login }}>
                    <User aria-hidden />
                    <Trans>Profile</Trans>
                  </Link>
                </DropdownMenuItem>
                {menuEntries}
                <DropdownMenuItem onSelect={onLogout}>
                  <LogOut aria-hidden />
                  <Trans>Log out</Trans>
                </DropdownMenuItem>
              </DropdownMenuContent>
            </DropdownMenu>
          </div>
        </div>
      </nav>
    </header>
  );
}
