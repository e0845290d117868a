// @no-test-database
import fs from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { shopifyProduct } from '../catalog/shopify-product';
import { startStoreSim } from '../store-sim/server';
import { colourHex, demoCataloguePath, renderDemoImage, type DemoCatalogue } from './images';

interface Variant {
  id: number;
  title: string;
  option1: string | null;
  option2: string | null;
  option3: string | null;
  sku: string;
  available: boolean;
  price: string;
  compare_at_price: string | null;
  position: number;
  product_id: number;
  grams: number;
}

interface Product {
  id: number;
  title: string;
  handle: string;
  body_html: string;
  vendor: string;
  product_type: string;
  tags: string[];
  published_at: string;
  variants: Variant[];
  images: Array<{
    id: number;
    position: number;
    product_id: number;
    variant_ids: number[];
    src: string;
    width: number;
    height: number;
  }>;
  options: Array<{ name: string; position: number; values: string[] }>;
}

const raw = fs.readFileSync(demoCataloguePath(), 'utf8');
const { products } = JSON.parse(raw) as { products: Product[] };
const variants = products.flatMap((p) => p.variants);
const decimal = /^\d+\.\d{2}$/;

function optionValues(v: Variant): Array<string | null> {
  return [v.option1, v.option2, v.option3];
}

async function pixel(png: Uint8Array, x: number, y: number): Promise<string> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return `#${[0, 1, 2].map((c) => data[at + c]!.toString(16).padStart(2, '0')).join('')}`;
}

describe('demo catalogue', () => {
  it('is a storefront products.json of 150-200 products, small enough to ship', () => {
    expect(products.length).toBeGreaterThanOrEqual(150);
    expect(products.length).toBeLessThanOrEqual(200);
    expect(Buffer.byteLength(raw)).toBeLessThan(650_000);
  });

  it('has unique ids and handles', () => {
    const unique = (xs: unknown[]) => new Set(xs).size === xs.length;
    expect(unique(products.map((p) => p.id))).toBe(true);
    expect(unique(products.map((p) => p.handle))).toBe(true);
    expect(unique(variants.map((v) => v.id))).toBe(true);
    expect(unique(variants.map((v) => v.sku))).toBe(true);
    expect(unique(products.flatMap((p) => p.images.map((i) => i.id)))).toBe(true);
    expect(unique(products.map((p) => p.title))).toBe(true);
  });

  it('gives every product real copy, a type, a vendor, tags and a colour', () => {
    for (const p of products) {
      expect(p.handle).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(p.body_html).toMatch(/^<p>.{40,}<\/p>/);
      expect(p.product_type).not.toBe('');
      expect(p.vendor).not.toBe('');
      expect(Number.isNaN(Date.parse(p.published_at))).toBe(false);
      expect(p.tags.every((t) => typeof t === 'string' && t.trim() === t && t !== '')).toBe(true);
      expect(p.tags.some((t) => t.startsWith('color:'))).toBe(true);
    }
  });

  it('prices every variant as a decimal string with a boolean availability', () => {
    for (const p of products) {
      expect(p.variants.length).toBeGreaterThanOrEqual(1);
      expect(p.variants.length).toBeLessThanOrEqual(12);
      p.variants.forEach((v, i) => {
        expect(v.price).toMatch(decimal);
        if (v.compare_at_price !== null) {
          expect(v.compare_at_price).toMatch(decimal);
          expect(Number(v.compare_at_price)).toBeGreaterThan(Number(v.price));
        }
        expect(typeof v.available).toBe('boolean');
        expect(v.product_id).toBe(p.id);
        expect(v.position).toBe(i + 1);
        expect(Number.isInteger(v.grams)).toBe(true);
      });
    }
    const prices = variants.map((v) => Number(v.price));
    expect(Math.min(...prices)).toBeLessThanOrEqual(5);
    expect(Math.max(...prices)).toBeGreaterThanOrEqual(550);
    const unavailable = variants.filter((v) => !v.available).length / variants.length;
    expect(unavailable).toBeGreaterThan(0.05);
    expect(unavailable).toBeLessThan(0.15);
  });

  it('lists exactly the option values its variants use, each combination once', () => {
    for (const p of products) {
      expect(p.options.map((o) => o.position)).toEqual(p.options.map((_, i) => i + 1));
      for (const v of p.variants) {
        const values = optionValues(v);
        expect(values.slice(p.options.length).every((x) => x === null)).toBe(true);
        expect(v.title).toBe(values.slice(0, p.options.length).join(' / '));
      }
      p.options.forEach((o, i) => {
        const used = new Set(p.variants.map((v) => optionValues(v)[i]));
        expect(new Set(o.values)).toEqual(used);
      });
      const combos = p.variants.map((v) => v.title);
      expect(new Set(combos).size).toBe(combos.length);
    }
  });

  it('reads as Shopify products for the catalogue sync', () => {
    for (const p of products) expect(shopifyProduct.safeParse(p).error).toBeUndefined();
  });

  it('points every image at /cdn/<handle>-<n>.png and at its own variants', () => {
    for (const p of products) {
      const ids = new Set(p.variants.map((v) => v.id));
      expect(p.images.length).toBeGreaterThanOrEqual(1);
      p.images.forEach((image, i) => {
        expect(image.position).toBe(i + 1);
        expect(image.src).toBe(`/cdn/${p.handle}-${i + 1}.png`);
        expect(image.product_id).toBe(p.id);
        expect([image.width, image.height]).toEqual([400, 400]);
        expect(image.variant_ids.every((id) => ids.has(id))).toBe(true);
      });
    }
  });
});

describe('renderDemoImage', () => {
  it('renders every catalogue image path as a 400x400 PNG', async () => {
    const paths = products.flatMap((p) => p.images.map((i) => i.src));
    const described = await Promise.all(
      paths.map(async (path) => {
        const image = await renderDemoImage(path);
        const meta = await sharp(image!.body).metadata();
        return [image!.contentType, meta.format, meta.width, meta.height];
      }),
    );
    for (const d of described) expect(d).toEqual(['image/png', 'png', 400, 400]);
  });

  it('answers undefined for paths that are not catalogue images', async () => {
    expect(await renderDemoImage('/cdn/no-such-product-1.png')).toBeUndefined();
    expect(await renderDemoImage('/cdn/stoneware-mug-12-oz-9.png')).toBeUndefined();
    expect(await renderDemoImage('http://[broken')).toBeUndefined();
  });

  it('draws each colour variant in its own colour, the same bytes every time', async () => {
    const mug = products.find((p) => p.handle === 'stoneware-mug-12-oz')!;
    const colours = mug.options.find((o) => o.name === 'Color')!.values;
    const first = await renderDemoImage('/cdn/stoneware-mug-12-oz-1.png');
    const second = await renderDemoImage('/cdn/stoneware-mug-12-oz-2.png');
    expect(await pixel(first!.body, 190, 230)).toBe(colourHex(colours[0]!));
    expect(await pixel(second!.body, 190, 230)).toBe(colourHex(colours[1]!));
    for (const same of [
      'stoneware-mug-12-oz-1.png',
      'http://127.0.0.1:9/cdn/stoneware-mug-12-oz-1.png?v=2',
    ]) {
      expect(
        Buffer.from((await renderDemoImage(same))!.body).equals(Buffer.from(first!.body)),
      ).toBe(true);
    }
  });

  it('serves the catalogue and its images through the store simulator over HTTP', async () => {
    const sim = await startStoreSim({
      shops: [
        {
          domain: 'demo.example',
          products: JSON.parse(raw).products,
          imageRenderer: (p) => renderDemoImage(p),
        },
      ],
    });
    try {
      const res = await fetch(`${sim.shopUrl('demo.example')}/products.json?limit=250`);
      const served = ((await res.json()) as { products: Product[] }).products;
      expect(served.map((p) => p.handle)).toEqual(products.map((p) => p.handle));
      const src = served[0]!.images[0]!.src;
      expect(src).toBe(`${sim.shopUrl('demo.example')}${products[0]!.images[0]!.src}`);
      const image = await fetch(src);
      expect(image.headers.get('content-type')).toBe('image/png');
      const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
      expect([meta.width, meta.height]).toEqual([400, 400]);
    } finally {
      await sim.close();
    }
  });

  it('renders images of a catalogue passed in, from its colour tag', async () => {
    const catalogue: DemoCatalogue = {
      products: [
        {
          handle: 'mystery-item',
          product_type: 'Something New',
          tags: ['color:teal'],
          options: [{ name: 'Title', values: ['Default Title'] }],
          variants: [{ id: 1, option1: 'Default Title', option2: null, option3: null }],
          images: [{ src: '/cdn/mystery-item-1.png', variant_ids: [] }],
        },
      ],
    };
    const image = await renderDemoImage('/cdn/mystery-item-1.png', catalogue);
    expect(await pixel(image!.body, 250, 250)).toBe(colourHex('teal'));
    expect(await renderDemoImage('/cdn/stoneware-mug-12-oz-1.png', catalogue)).toBeUndefined();
  });
});
