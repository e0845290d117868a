'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';

/** A main-menu link that tells assistive technology which section is open. */
export function NavLink({ href, children }: { href: string; children: React.ReactNode }) {
  const pathname = usePathname();
  const current = pathname === href || pathname.startsWith(`${href}/`);
  return (
    <Link
      href={href}
      aria-current={current ? 'page' : undefined}
      className={`underline-offset-4 hover:underline ${current ? 'font-semibold underline' : ''}`}
    >
      {children}
    </Link>
  );
}
