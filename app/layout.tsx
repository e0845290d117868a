import type { Metadata, Viewport } from 'next';
import Link from 'next/link';
import { NavLink } from '@/components/nav-link';
import './globals.css';
import { Providers } from './providers';

export const metadata: Metadata = {
  title: 'Commerce search',
  description: 'Search products across stores, personalize by style, and buy.',
};

export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

const NAV = [
  { href: '/search', label: 'Search' },
  { href: '/profile', label: 'Profile' },
  { href: '/staff', label: 'Staff' },
];

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:p-2">
          Skip to content
        </a>
        <header className="border-b border-slate-200 bg-white">
          <nav
            aria-label="Main"
            className="mx-auto flex max-w-6xl flex-wrap items-center gap-4 px-4 py-3"
          >
            <Link href="/search" className="text-lg font-semibold">
              Commerce search
            </Link>
            <ul className="flex gap-4">
              {NAV.map((item) => (
                <li key={item.href}>
                  <NavLink href={item.href}>{item.label}</NavLink>
                </li>
              ))}
            </ul>
          </nav>
        </header>
        <Providers>
          <main id="main" className="mx-auto max-w-6xl px-4 py-6">
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}
