import { buildApi } from '@/lib/http/app';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const { app } = buildApi();
const handle = (req: Request) => app.fetch(req);

export { handle as GET, handle as POST, handle as PUT, handle as DELETE, handle as PATCH };
