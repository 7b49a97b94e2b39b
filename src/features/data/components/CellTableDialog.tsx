import { useLingui } from '@lingui/react/macro';
import { Dialog, DialogContent, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';

/** A value that is itself a table (a pattern component's), opened from its cell; its first row gives the columns. */
export function CellTableDialog({ table, onClose }: { table: { title: string; rows: Array<Record<string, string>> } | null; onClose: () => void }) {
  const { t } = useLingui();
  return (
    <Dialog open={table !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent closeLabel={t`Close`} className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>{table?.title}</DialogTitle>
        </DialogHeader>
        {table && table.rows.length > 0 ? (
          <Table>
            <TableHeader>
              <TableRow>
                {Object.keys(table.rows[0]).map((key) => (
                  <TableHead key={key}>{key}</TableHead>
                ))}
              </TableRow>
            </TableHeader>
            <TableBody>
              {table.rows.map((row, index) => (
                <TableRow key={index}>
                  {Object.values(row).map((cell, i) => (
                    <TableCell key={i}>{cell}</TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
