export function Notice({
  tone,
  title,
  children,
}: {
  tone: 'info' | 'error' | 'success';
  title?: string;
  children: React.ReactNode;
}) {
  const colors = {
    info: 'border-slate-300 bg-slate-50 text-slate-800',
    error: 'border-red-300 bg-red-50 text-red-900',
    success: 'border-green-300 bg-green-50 text-green-900',
  }[tone];
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={`rounded border p-3 ${colors}`}>
      {title && <p className="font-semibold">{title}</p>}
      <div>{children}</div>
    </div>
  );
}
