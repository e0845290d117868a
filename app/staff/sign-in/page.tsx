import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { hasStaffSession } from '../../_server/staff-session';
import { SignInForm } from './sign-in-form';

export const metadata: Metadata = { title: 'Staff sign-in · Commerce search' };
export const dynamic = 'force-dynamic';

export default async function SignInPage() {
  if (await hasStaffSession()) redirect('/staff');
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Staff sign-in</h1>
      <p>Store pages are for store staff. Sign in with the operator token of this server.</p>
      <SignInForm />
    </div>
  );
}
