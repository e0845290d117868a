// @no-test-database
import { describe, expect, it } from 'vitest';
import { noisyVector, scaledCatalogue, variedTitle, vocabularyOf } from './scale';

/** Home Depot-shaped records (one variant each, numeric ids), titles from that file. */
const TITLES = [
  'Simpson Strong-Tie 12-Gauge Angle',
  'BEHR Premium Textured DeckOver 1-gal. #SC-141 Tugboat Wood and Concrete Coating',
  'Delta Vero 1-Handle Shower Only Faucet Trim Kit in Chrome (Valve Not Included)',
  'Lithonia Lighting 4 ft. 2-Light T12 Fluorescent Shop Light (2-Pack)',
  'Moen Banbury 4 in. Centerset 2-Handle Bathroom Faucet in Chrome',
  'Glacier Bay 36 in. Vanity in White',
  'Feit Electric 60W A19 LED Light Bulb (4-Pack)',
  'Philips 65W BR30 Indoor Flood Light Bulb (2-Pack)',
  'Everbilt 1/2 in. Zinc-Plated Steel Washer in White',
  'Hampton Bay 36 in. Ceiling Fan with A19 Bulb (4-Pack)',
  'Rust-Oleum 12 oz. Spray Paint in Black',
  'Rust-Oleum 12 oz. Spray Paint in Black',
  'GE 40-Watt 4 ft. T12 Fluorescent Tube (2-Pack)',
];
const RECORDS = TITLES.map((title, i) => ({
  id: 100001 + i,
  title,
  handle: `item-${100001 + i}`,
  body_html: '',
  variants: [{ id: (100001 + i) * 10 + 1, product_id: 100001 + i, price: '0.00' }],
}));

describe('vocabularyOf', () => {
  it('keeps the sizes, pack counts, colours and model numbers that recur in the titles', () => {
    const v = vocabularyOf(TITLES);
    expect(v.sizes).toEqual(expect.arrayContaining(['36 in.', '12 oz.']));
    expect(v.packs).toEqual(['2-Pack', '4-Pack']);
    expect(v.colours).toEqual(['Black', 'Chrome', 'White']);
    expect(v.models).toEqual(['A19', 'T12']);
  });
});

describe('scaledCatalogue', () => {
  const scale = 6;
  const catalogue = scaledCatalogue(RECORDS, scale);
  const all = catalogue.slice(0, catalogue.size);

  it('is the originals first, then each copy in turn, the same on every call', () => {
    expect(catalogue.size).toBe(RECORDS.length * scale);
    expect(all.slice(0, RECORDS.length)).toEqual(RECORDS);
    expect(scaledCatalogue(RECORDS, scale).slice(0, catalogue.size)).toEqual(all);
    expect(catalogue.slice(30, 40)).toEqual(all.slice(30, 40));
    expect(catalogue.origin(RECORDS.length * 2 + 3)).toEqual({ original: 3, copy: 2 });
  });

  it('gives every product and every variant an id of its own', () => {
    const ids = all.map((p) => p.id);
    expect(new Set(ids).size).toBe(all.length);
    const variants = all.flatMap((p) => p.variants as Array<{ id: number; product_id: number }>);
    expect(new Set(variants.map((v) => v.id)).size).toBe(variants.length);
    for (const p of all) {
      for (const v of p.variants as Array<{ product_id: number }>) expect(v.product_id).toBe(p.id);
    }
    expect(new Set(all.map((p) => p.handle)).size).toBe(all.length);
  });

  it('varies each copy of a product by a different word from the catalogue', () => {
    const vocabulary = vocabularyOf(TITLES);
    const words = Object.values(vocabulary).flat();
    for (let original = 0; original < RECORDS.length; original++) {
      const copies = Array.from(
        { length: scale },
        (_, k) => all[k * RECORDS.length + original]!.title as string,
      );
      expect(copies[0]).toBe(TITLES[original]);
      expect(new Set(copies).size).toBe(scale);
      for (const title of copies.slice(1)) {
        expect(title.startsWith(TITLES[original]!)).toBe(true);
        const added = title.slice(TITLES[original]!.length);
        expect(words.some((w) => added.includes(w))).toBe(true);
      }
    }
    const kinds = new Set(
      all.slice(RECORDS.length).map((p) => {
        const title = p.title as string;
        if (title.endsWith('-Pack)')) return 'pack';
        if (/ in [A-Z][a-z]+$/.test(title)) return 'colour';
        if (/, \S+ \S+\.$/.test(title)) return 'size';
        return 'model';
      }),
    );
    expect(kinds).toEqual(new Set(['pack', 'colour', 'size', 'model']));
  });

  it('leaves the catalogue as it is at scale 1', () => {
    const one = scaledCatalogue(RECORDS, 1);
    expect(one.slice(0, one.size)).toEqual(RECORDS);
  });

  it('refuses a scale that is not a positive integer', () => {
    expect(() => scaledCatalogue(RECORDS, 0)).toThrow(/--scale/);
    expect(() => scaledCatalogue(RECORDS, 1.5)).toThrow(/--scale/);
  });

  it('refuses a catalogue with nothing to vary titles by', () => {
    expect(() =>
      variedTitle('Plain', '1', 1, { sizes: [], packs: [], colours: [], models: [] }),
    ).toThrow(/no sizes/);
  });
});

describe('noisyVector', () => {
  const dims = 512;
  const original = Array.from({ length: dims }, (_, i) => Math.sin(i + 1));
  const norm = Math.hypot(...original);
  const unit = original.map((x) => x / norm);
  const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);

  it('is unit length, near the original, and the same for the same product and copy', () => {
    const copy = noisyVector(unit, '100001', 3);
    expect(Math.hypot(...copy)).toBeCloseTo(1, 10);
    expect(cosine(copy, unit)).toBeGreaterThan(0.95);
    expect(cosine(copy, unit)).toBeLessThan(0.995);
    expect(noisyVector(unit, '100001', 3)).toEqual(copy);
  });

  it('differs between copies and between products', () => {
    const a = noisyVector(unit, '100001', 1);
    expect(cosine(a, noisyVector(unit, '100001', 2))).toBeLessThan(0.99);
    expect(cosine(a, noisyVector(unit, '100002', 1))).toBeLessThan(0.99);
  });

  it('is the original itself for copy 0', () => {
    expect(noisyVector(unit, '100001', 0)).toEqual(unit);
  });
});
