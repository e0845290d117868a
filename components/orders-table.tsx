import type { OrderRecord } from '@/lib/api-client';
import { formatTime } from './format';
import { variantName } from './variant-words';

function lineWords(line: OrderRecord['lines'][number]): string {
  const name = variantName(line.variant_title);
  return `${line.quantity} × ${line.title}${name ? ` (${name})` : ''}`;
}

/** Staff also see whether each order shipped. */
type StaffOrder = OrderRecord & { fulfillment: string };

interface Column {
  label: string;
  cell: (order: OrderRecord | StaffOrder) => React.ReactNode;
  className?: string;
}

/** The columns of the shopper's orders and the store's, in order; Fulfillment is staff's only. */
const COLUMNS: Column[] = [
  { label: 'Order', cell: (o) => o.id, className: 'font-mono break-all' },
  {
    label: 'Status',
    cell: (o) => `${o.status}${o.error_code ? ` (${o.error_code})` : ''}`,
  },
  { label: 'Source', cell: (o) => o.source },
  { label: 'Fulfillment', cell: (o) => ('fulfillment' in o ? o.fulfillment : undefined) },
  { label: 'Items', cell: (o) => o.lines.map(lineWords).join(', ') },
  { label: 'Store order', cell: (o) => o.platform_order_id ?? '—', className: 'font-mono' },
  { label: 'Placed', cell: (o) => formatTime(o.created_at) },
];

/** One table for a profile's orders and a store's orders (with their fulfillment, for staff). */
export function OrdersTable({
  orders,
  caption,
}: {
  orders: OrderRecord[] | StaffOrder[];
  caption: string;
}) {
  if (orders.length === 0) return <p>No orders yet.</p>;
  const staff = orders.some((o) => 'fulfillment' in o);
  const columns = COLUMNS.filter((c) => staff || c.label !== 'Fulfillment');
  return (
    <div className="overflow-x-auto">
      <table className="stack-table w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b">
            {columns.map((c) => (
              <th key={c.label} scope="col" className="py-2 pr-3 last:pr-0">
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {orders.map((o) => (
            <tr key={o.id} className="border-b align-top" data-testid="order-row">
              {columns.map((c) => (
                <td
                  key={c.label}
                  className={`py-2 pr-3 last:pr-0 ${c.className ?? ''}`}
                  data-label={c.label}
                >
                  {c.cell(o)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
