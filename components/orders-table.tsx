import type { OrderRecord } from '@/lib/api-client';
import { formatTime } from './format';
import { variantName } from './variant-words';

function lineWords(line: OrderRecord['lines'][number]): string {
  const name = variantName(line.variant_title);
  return `${line.quantity} × ${line.title}${name ? ` (${name})` : ''}`;
}

/** Staff see how each order was placed and whether it shipped. */
type StaffOrder = OrderRecord & { fulfillment: string };

export function OrdersTable({
  orders,
  caption,
}: {
  orders: OrderRecord[] | StaffOrder[];
  caption: string;
}) {
  const staff = orders.some((o) => 'fulfillment' in o);
  if (orders.length === 0) return <p>No orders yet.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="stack-table w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b">
            <th scope="col" className="py-2 pr-3">
              Order
            </th>
            <th scope="col" className="py-2 pr-3">
              Status
            </th>
            {staff && (
              <>
                <th scope="col" className="py-2 pr-3">
                  Source
                </th>
                <th scope="col" className="py-2 pr-3">
                  Fulfillment
                </th>
              </>
            )}
            <th scope="col" className="py-2 pr-3">
              Items
            </th>
            <th scope="col" className="py-2 pr-3">
              Store order
            </th>
            <th scope="col" className="py-2">
              Placed
            </th>
          </tr>
        </thead>
        <tbody>
          {orders.map((o) => (
            <tr key={o.id} className="border-b align-top" data-testid="order-row">
              <td className="py-2 pr-3 font-mono break-all" data-label="Order">
                {o.id}
              </td>
              <td className="py-2 pr-3" data-label="Status">
                {o.status}
                {o.error_code ? ` (${o.error_code})` : ''}
              </td>
              {'fulfillment' in o && (
                <>
                  <td className="py-2 pr-3" data-label="Source">
                    {o.source}
                  </td>
                  <td className="py-2 pr-3" data-label="Fulfillment">
                    {o.fulfillment}
                  </td>
                </>
              )}
              <td className="py-2 pr-3" data-label="Items">
                {o.lines.map(lineWords).join(', ')}
              </td>
              <td className="py-2 pr-3 font-mono" data-label="Store order">
                {o.platform_order_id ?? '—'}
              </td>
              <td className="py-2" data-label="Placed">
                {formatTime(o.created_at)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
