import type { Metadata } from 'next';
import Link from 'next/link';

export const metadata: Metadata = { title: 'Not found · Commerce search' };

export default function NotFound() {
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Page not found</h1>
      <p>There is no page at this address.</p>
      <Link href="/search" className="underline">
        Go to the search
      </Link>
    </div>
  );
}
