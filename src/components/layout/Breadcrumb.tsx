import { Fragment } from 'react';
import { ChevronRight } from 'lucide-react';

export interface Crumb {
  label: string;
  href?: string;
}

/** Where the page sits; the last crumb is the page itself. */
export function Breadcrumb({ crumbs, label }: { crumbs: Crumb[]; label: string }) {
  return (
    <nav aria-label={label} className="mb-3 text-sm">
      <ol className="flex flex-wrap items-center gap-1 text-muted-foreground">
        {crumbs.map((crumb, index) => (
          <Fragment key={index}>
            {index > 0 ? <ChevronRight className="size-4" aria-hidden /> : null}
            {/* A name may be one long word: it breaks rather than widen the page. */}
            <li className="min-w-0 wrap-anywhere">
              {crumb.href && index < crumbs.length - 1 ? (
                <a href={crumb.href} className="inline-flex min-h-11 items-center underline-offset-4 hover:underline">
                  {crumb.label}
                </a>
              ) : (
                <span
                  aria-current={index === crumbs.length - 1 ? 'page' : undefined}
                  className="font-medium text-foreground"
                >
                  {crumb.label}
                </span>
              )}
            </li>
          </Fragment>
        ))}
      </ol>
    </nav>
  );
}
