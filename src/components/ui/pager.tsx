import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from './button';

interface PagerProps {
  page: number;
  pages: number[];
  count: number;
  onChange(page: number): void;
  labels: { navigation: string; previous: string; next: string; page: (n: number) => string };
}

export function Pager({ page, pages, count, onChange, labels }: PagerProps) {
  return (
    <nav aria-label={labels.navigation} className="flex flex-wrap items-center justify-center gap-1">
      <Button
        variant="outline"
        size="icon"
        disabled={page <= 1}
        onClick={() => onChange(page - 1)}
        aria-label={labels.previous}
      >
        <ChevronLeft aria-hidden />
      </Button>
      {pages.map((n) => (
        <Button
          key={n}
          variant={n === page ? 'default' : 'outline'}
          size="icon"
          aria-label={labels.page(n)}
          aria-current={n === page ? 'page' : undefined}
          onClick={() => onChange(n)}
        >
          {n}
        </Button>
      ))}
      <Button
        variant="outline"
        size="icon"
        disabled={page >= count}
        onClick={() => onChange(page + 1)}
        aria-label={labels.next}
      >
        <ChevronRight aria-hidden />
      </Button>
    </nav>
  );
}
