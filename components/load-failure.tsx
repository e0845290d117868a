import Link from 'next/link';
import { Notice } from './notice';

/**
 * A page whose subject could not be loaded: its heading, why (in plain words, as `children`), and
 * the way back.
 */
export function LoadFailure({
  heading,
  title,
  back,
  children,
}: {
  heading: string;
  title: string;
  back: { href: string; label: string };
  children: React.ReactNode;
}) {
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">{heading}</h1>
      <Notice tone="error" title={title}>
        {children}
      </Notice>
      <Link href={back.href} className="underline">
        {back.label}
      </Link>
    </div>
  );
}
