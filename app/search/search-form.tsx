'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { DEFAULTS, toQueryString, type SearchParams } from './params';

function Slider({
  id,
  label,
  value,
  onChange,
  hint,
}: {
  id: string;
  label: string;
  value: number;
  onChange: (v: number) => void;
  hint: string;
}) {
  return (
    <div>
      <label htmlFor={id} className="flex justify-between text-sm font-medium">
        <span>{label}</span>
        <output htmlFor={id} data-testid={`${id}-value`}>
          {value.toFixed(2)}
        </output>
      </label>
      <input
        id={id}
        type="range"
        min={0}
        max={1}
        step={0.05}
        value={value}
        aria-describedby={`${id}-hint`}
        onChange={(e) => onChange(Number(e.target.value))}
        className="mt-1 w-full accent-blue-700"
      />
      <p id={`${id}-hint`} className="text-xs text-slate-600">
        {hint}
      </p>
    </div>
  );
}

const optionalNumber = (s: string) => (s.trim() === '' ? undefined : Number(s));

export function SearchForm({
  initial,
  hasStyle,
  stores,
}: {
  initial: SearchParams;
  hasStyle: boolean;
  stores: Array<{ domain: string; name: string }>;
}) {
  const router = useRouter();
  const [p, setP] = useState(initial);
  // On a phone the options fold away, so the results start on the first screen.
  const [showOptions, setShowOptions] = useState(false);
  const set = (patch: Partial<SearchParams>) => setP((prev) => ({ ...prev, ...patch }));

  return (
    <form
      role="search"
      className="card grid gap-4 md:grid-cols-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (!p.q.trim()) return;
        router.push(`/search?${toQueryString({ ...p, q: p.q.trim() })}`);
      }}
    >
      <div className="md:col-span-2">
        <label htmlFor="search-q" className="block text-sm font-medium">
          What are you looking for?
        </label>
        <div className="mt-1 flex gap-2">
          <input
            id="search-q"
            type="search"
            required
            className="input"
            value={p.q}
            onChange={(e) => set({ q: e.target.value })}
          />
          <button type="submit" className="btn btn-primary">
            Search
          </button>
        </div>
      </div>
      <button
        type="button"
        className="btn btn-secondary md:hidden"
        aria-expanded={showOptions}
        aria-controls="search-options"
        onClick={() => setShowOptions((v) => !v)}
      >
        {showOptions ? 'Fewer options' : 'More options'}
      </button>
      <div
        id="search-options"
        className={`${showOptions ? 'grid' : 'hidden'} gap-4 md:col-span-2 md:grid md:grid-cols-2`}
      >
        <div>
          <label htmlFor="search-image" className="block text-sm font-medium">
            Image URL (optional)
          </label>
          <input
            id="search-image"
            type="url"
            className="input mt-1"
            value={p.image ?? ''}
            onChange={(e) => set({ image: e.target.value || undefined })}
          />
        </div>
        {stores.length > 0 ? (
          <div>
            <label htmlFor="search-store" className="block text-sm font-medium">
              Store
            </label>
            <select
              id="search-store"
              className="input mt-1"
              value={p.store ?? ''}
              onChange={(e) => set({ store: e.target.value || undefined })}
            >
              <option value="">All stores</option>
              {stores.map((s) => (
                <option key={s.domain} value={s.domain}>
                  {s.name} ({s.domain})
                </option>
              ))}
            </select>
          </div>
        ) : (
          <div>
            <label htmlFor="search-store" className="block text-sm font-medium">
              Store domain
            </label>
            <input
              id="search-store"
              className="input mt-1"
              placeholder="empty: all stores"
              value={p.store ?? ''}
              onChange={(e) => set({ store: e.target.value || undefined })}
            />
          </div>
        )}
        {/* Without a style the query is all there is to weigh: its weight would change nothing. */}
        {hasStyle && (
          <>
            <Slider
              id="query-weight"
              label="Query weight"
              value={p.qw ?? DEFAULTS.queryWeightWithStyle}
              onChange={(qw) => set({ qw })}
              hint="How much the text (and image) counts against your style."
            />
            <Slider
              id="style-weight"
              label="Style weight"
              value={p.sw ?? DEFAULTS.styleWeight}
              onChange={(sw) => set({ sw })}
              hint="How much your profile's style counts."
            />
          </>
        )}
        <Slider
          id="threshold"
          label="Similarity threshold"
          value={p.th ?? DEFAULTS.threshold}
          onChange={(th) => set({ th })}
          hint="Hide products that match less than this."
        />
        <div className="grid grid-cols-3 gap-2">
          <div>
            <label htmlFor="search-n" className="block text-sm font-medium">
              Results
            </label>
            <input
              id="search-n"
              type="number"
              min={1}
              max={50}
              className="input mt-1"
              value={p.n}
              onChange={(e) => set({ n: Math.max(1, Number(e.target.value) || 1) })}
            />
          </div>
          <div>
            <label htmlFor="search-min" className="block text-sm font-medium">
              Min price
            </label>
            <input
              id="search-min"
              type="number"
              min={0}
              step="0.01"
              className="input mt-1"
              value={p.min ?? ''}
              onChange={(e) => set({ min: optionalNumber(e.target.value) })}
            />
          </div>
          <div>
            <label htmlFor="search-max" className="block text-sm font-medium">
              Max price
            </label>
            <input
              id="search-max"
              type="number"
              min={0}
              step="0.01"
              className="input mt-1"
              value={p.max ?? ''}
              onChange={(e) => set({ max: optionalNumber(e.target.value) })}
            />
          </div>
        </div>
      </div>
    </form>
  );
}
