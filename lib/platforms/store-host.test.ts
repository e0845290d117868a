// @no-test-database
import { describe, expect, it } from 'vitest';
import { storeHost } from './store-host';

describe('storeHost', () => {
  it('keeps the lower-case host name of a pasted URL', () => {
    expect(storeHost(' HTTPS://Shop.Example.com/collections/all?x=1 ')).toBe('shop.example.com');
    expect(storeHost('shop.example.com.')).toBe('shop.example.com');
    expect(storeHost('shop.myshopify.com#top')).toBe('shop.myshopify.com');
  });

  it('refuses what is not a host name', () => {
    for (const input of [
      'localhost',
      'shop.example.com:8080',
      'user@shop.example.com',
      'a b.com',
      '',
    ]) {
      expect(storeHost(input), input).toBeUndefined();
    }
  });
});
