export default function Searching() {
  return (
    <p role="status" className="py-6">
      Searching…
    </p>
  );
}
