import Link from 'next/link';
import type { SearchProduct } from '@/lib/api-client';
import { priceRange } from './format';

export function ProductCard({ product, href }: { product: SearchProduct; href: string }) {
  const available = product.variants.some((v) => v.available);
  const image = product.images[0];
  return (
    <li className="card flex flex-col gap-2" data-testid="product-card">
      {image ? (
        // Store images come from any shop's CDN: next/image would need each host allow-listed.
        // eslint-disable-next-line @next/next/no-img-element
        <img src={image} alt="" className="aspect-square w-full rounded object-cover" />
      ) : (
        <div className="flex aspect-square w-full items-center justify-center rounded bg-slate-100 text-sm text-slate-500">
          No image
        </div>
      )}
      <h2 className="font-semibold">
        <Link href={href} className="underline-offset-4 hover:underline">
          {product.title}
        </Link>
      </h2>
      <p className="text-sm text-slate-600">{product.store_name}</p>
      <p>
        {priceRange(
          product.variants.map((v) => v.price),
          product.currency,
        )}
      </p>
      <p className={available ? 'text-sm text-green-800' : 'text-sm text-red-800'}>
        {available ? 'Available' : 'Sold out'}
      </p>
    </li>
  );
}
