// @no-test-database
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminExport } from '../testing/fixtures/admin-export';
import { toPriceString } from './decimal';
import { htmlToText } from './html-text';
import { readUcpShopProducts } from '../store-sim/ucp-data';
import { BadRecordError, contentHash, isListed, normalizeProduct } from './normalize';

const publicProduct = {
  id: 7001,
  title: 'Linen Shirt',
  handle: 'linen-shirt',
  body_html: '<p>Soft&nbsp;linen &amp; cotton.</p><ul><li>Breathable</li><li>Relaxed fit</li></ul>',
  vendor: 'Acme',
  product_type: 'Shirts',
  tags: ['linen', ' summer '],
  options: [{ name: 'Size', position: 1, values: ['S', 'M'] }],
  variants: [
    { id: 1, title: 'S', option1: 'S', price: '49.90', available: false },
    { id: 2, title: 'M', option1: 'M', price: '39.5', available: true },
  ],
  images: [{ src: 'https://cdn.example/linen.jpg' }],
};

describe('normalizeProduct', () => {
  it('reads the public storefront shape', () => {
    const p = normalizeProduct(publicProduct);
    expect(p).toMatchObject({
      externalId: '7001',
      title: 'Linen Shirt',
      description: 'Soft linen & cotton.\nBreathable\nRelaxed fit',
      tags: ['linen', 'summer'],
      options: [{ name: 'Size', values: ['S', 'M'] }],
      images: ['https://cdn.example/linen.jpg'],
      priceMin: '39.50',
      priceMax: '49.90',
      available: true,
    });
    expect(p.variants.map((v) => [v.externalId, v.price, v.available])).toEqual([
      ['1', '49.90', false],
      ['2', '39.50', true],
    ]);
    expect(p.raw).toBe(publicProduct);
  });

  it('reads the Admin shape: comma-separated tags and availability from inventory', () => {
    const cap = adminExport[0]!;
    const p = normalizeProduct(cap);
    expect(p.externalId).toBe('7410000000101');
    expect(p.tags).toEqual(['Accessories', 'Hats', 'wool', 'Made in Vermont']);
    expect(p.description).toBe(
      'A five-panel cap in boiled wool, with a waxed cotton strap.\nOne size fits most\n' +
        'Sewn in our workshop\nSpot clean.\nDry flat.',
    );
    expect(p.options).toEqual([{ name: 'Color', values: ['Moss', 'Charcoal', 'Rust'] }]);
    expect(p.images).toEqual([
      'https://cdn.example.com/fernhill/cap-moss.jpg',
      'https://cdn.example.com/fernhill/cap-charcoal.jpg',
    ]);
    expect([p.priceMin, p.priceMax]).toEqual(['34.00', '38.00']);
    expect(p.variants.map((v) => [v.externalId, v.available])).toEqual([
      ['7410000100101', true],
      ['7410000100102', false],
      ['7410000100103', true],
    ]);
    const tracked = {
      ...cap.variants[0],
      inventory_management: 'shopify',
      inventory_policy: 'deny',
    };
    const variantsOf = (overrides: object) =>
      normalizeProduct({ ...cap, variants: [{ ...tracked, ...overrides }] }).variants[0]!.available;
    expect(variantsOf({ inventory_quantity: 0 })).toBe(false);
    expect(variantsOf({ inventory_quantity: 3 })).toBe(true);
    expect(variantsOf({ inventory_quantity: 0, inventory_policy: 'continue' })).toBe(true);
    expect(variantsOf({ inventory_quantity: 0, inventory_management: null })).toBe(true);
  });

  it('normalizes every product of an Admin export', () => {
    const normalized = adminExport.map((raw) => normalizeProduct(raw));
    expect(normalized.map((p) => [p.title, p.tags, p.available])).toEqual([
      ['Fernhill Wool Five-Panel Cap', ['Accessories', 'Hats', 'wool', 'Made in Vermont'], true],
      ['Ridgeline Packable Rain Shell', ['Outerwear', 'Rain', 'Waterproof'], true],
      ['Cedar Folding Camp Stool', [], true],
      ['Merino Trail Crew Socks', ['Accessories', 'Socks', 'wool'], true],
      ['Waxed Canvas Field Tote', ['Bags'], false],
    ]);
    const shell = normalized[1]!;
    expect(shell.description).toBe(
      'Seam-taped 2.5-layer shell that packs into its own pocket & weighs 240 g.',
    );
    expect(
      shell.variants.map((v) => [v.title, v.option1, v.option2, v.price, v.available]),
    ).toEqual([
      ['S / Olive', 'S', 'Olive', '139.00', true],
      ['S / Navy', 'S', 'Navy', '139.00', false],
      ['M / Olive', 'M', 'Olive', '139.00', true],
      ['M / Navy', 'M', 'Navy', '139.00', true],
      ['L / Olive', 'L', 'Olive', '149.00', false],
      ['L / Navy', 'L', 'Navy', '149.00', true],
    ]);
    const unavailable = normalized.flatMap((p) =>
      p.variants.filter((v) => !v.available).map((v) => v.externalId),
    );
    expect(unavailable).toEqual([
      '7410000100102',
      '7410000100202',
      '7410000100205',
      '7410000100501',
      '7410000100502',
    ]);
  });

  it('keeps a UCP test-data shop’s text ids as given', () => {
    const [product] = readUcpShopProducts(path.join(__dirname, '../store-sim/fixtures/ucp-shop'));
    const normalized = normalizeProduct(product);
    expect(normalized.externalId).toBe('bouquet_roses');
    expect(normalized.variants).toMatchObject([
      { externalId: 'bouquet_roses', price: '35.00', available: true },
    ]);
  });

  it('names the record and the field of a bad record', () => {
    const bad = (record: unknown) => {
      try {
        normalizeProduct(record);
      } catch (err) {
        expect(err).toBeInstanceOf(BadRecordError);
        return [(err as BadRecordError).externalId, (err as Error).message];
      }
      throw new Error('expected a BadRecordError');
    };
    expect(bad({ ...publicProduct, title: '  ' })).toEqual([
      '7001',
      'invalid product: title must not be empty',
    ]);
    expect(bad({ ...publicProduct, variants: [] })[1]).toMatch(/variants must list at least one/);
    const [id, message] = bad({
      ...publicProduct,
      variants: [{ id: 9, price: '12,50', available: true }],
    });
    expect(id).toBe('7001');
    expect(message).toMatch(/variant 9: price "12,50" is not a non-negative decimal/);
    expect(bad(null)[0]).toBeNull();
  });

  it('hashes content independently of key order, and changes with content', () => {
    const reordered = Object.fromEntries(Object.entries(publicProduct).reverse());
    expect(contentHash(reordered)).toBe(contentHash(publicProduct));
    expect(contentHash({ ...publicProduct, title: 'Linen Shirt II' })).not.toBe(
      contentHash(publicProduct),
    );
  });

  it('treats drafts, archived and unpublished products as not listed', () => {
    expect(isListed(publicProduct)).toBe(true);
    expect(isListed({ status: 'active', published_at: '2025-01-01' })).toBe(true);
    expect(isListed({ status: 'draft' })).toBe(false);
    expect(isListed({ status: 'active', published_at: null })).toBe(false);
  });
});

describe('exact prices', () => {
  it('keeps cents exact and rounds further digits half up', () => {
    expect(toPriceString('0.1')).toBe('0.10');
    expect(toPriceString(19.99)).toBe('19.99');
    expect(toPriceString('007.005')).toBe('7.01');
    expect(toPriceString('1234567890.994')).toBe('1234567890.99');
    expect(() => toPriceString('-1.00')).toThrow(/non-negative decimal/);
    expect(() => toPriceString('1e3')).toThrow(/non-negative decimal/);
    expect(() => toPriceString('9999999999.995')).toThrow(/out of range/);
  });
});

describe('htmlToText', () => {
  it('drops scripts and comments, decodes entities, keeps block boundaries', () => {
    expect(
      htmlToText(
        '<div>Caf&eacute;<br>mug&#8482; &#x2014; 12&quot;</div><script>x()</script><!-- c --><p>two</p>',
      ),
    ).toBe('Café\nmug™ — 12"\ntwo');
  });
});
