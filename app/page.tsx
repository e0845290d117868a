export default function Home() {
  return (
    <main className="mx-auto max-w-3xl p-8">
      <h1 className="text-2xl font-semibold">Commerce search</h1>
      <p className="mt-2">
        The API lives under <code>/api</code>; its OpenAPI document is at{' '}
        <a className="underline" href="/api/openapi.json">
          /api/openapi.json
        </a>
        .
      </p>
    </main>
  );
}
