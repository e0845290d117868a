import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

/** The parts of a storefront `/products.json` product that the illustrations are drawn from. */
export interface DemoCatalogue {
  products: Array<{
    handle: string;
    product_type: string;
    tags: string[];
    options: Array<{ name: string; values: string[] }>;
    variants: Array<{
      id: number;
      option1: string | null;
      option2: string | null;
      option3: string | null;
    }>;
    images: Array<{ src: string; variant_ids: number[] }>;
  }>;
}

export interface DemoImage {
  contentType: 'image/png';
  /** Its own ArrayBuffer (sharp's Buffers may share a pooled one), as HTTP bodies and the simulator need. */
  body: Uint8Array<ArrayBuffer>;
}

type Product = DemoCatalogue['products'][number];
type Image = Product['images'][number];

const SIZE = 400;

export function demoCataloguePath(): string {
  return path.resolve(process.cwd(), 'lib/demo/catalogue.json');
}

let bundled: DemoCatalogue | undefined;

/** The catalogue the service ships with (`lib/demo/catalogue.json`), read once. */
export function loadDemoCatalogue(): DemoCatalogue {
  bundled ??= JSON.parse(fs.readFileSync(demoCataloguePath(), 'utf8')) as DemoCatalogue;
  return bundled;
}

// Colour names used by the demo catalogue; a variant's colour may add a pattern word
// ("Navy Stripe", "Red Buffalo Check"), so the longest known phrase inside it wins.
const PALETTE: Record<string, string> = {
  amber: '#c8812a',
  black: '#1f1f1f',
  blue: '#2f6db5',
  blush: '#e8b4b0',
  brass: '#b5923b',
  brown: '#6b4a2f',
  burgundy: '#7a2233',
  'burnt orange': '#cc5500',
  camel: '#c19a6b',
  champagne: '#e6d3a8',
  charcoal: '#3b3f45',
  chestnut: '#8a4b2a',
  chocolate: '#4e3426',
  clear: '#d6e4ea',
  cognac: '#9a4f25',
  copper: '#b8703f',
  cream: '#f1e8d2',
  'dark brown': '#4a3020',
  emerald: '#1f7a4d',
  'forest green': '#2f4f35',
  green: '#3f8a4a',
  grey: '#8c8f93',
  'heather grey': '#a3a5a8',
  indigo: '#2e3a6b',
  ivory: '#f4efe1',
  khaki: '#b5a47a',
  lavender: '#b6a6d6',
  mustard: '#d2a224',
  natural: '#d9c7a3',
  navy: '#1f2d4d',
  oatmeal: '#d8ccb4',
  olive: '#6b6b2f',
  orange: '#e8772e',
  pink: '#e89ab0',
  plum: '#5e2e55',
  red: '#c0392b',
  rust: '#a5482a',
  sage: '#9caf88',
  sand: '#d6c29a',
  silver: '#b9bdc1',
  'sky blue': '#8ec1e6',
  'slate blue': '#5a6f8f',
  steel: '#9aa1a8',
  tan: '#c4a27a',
  teal: '#2a8a8a',
  terracotta: '#c2673f',
  white: '#f7f7f5',
  yellow: '#f2c53d',
};
const UNKNOWN_COLOUR = PALETTE.grey!;

/** Hex colour for a colour name such as "Olive Plaid"; a neutral grey for names it does not know. */
export function colourHex(name: string): string {
  const words = name
    .toLowerCase()
    .split(/[\s_-]+/)
    .filter(Boolean);
  for (let n = words.length; n > 0; n--) {
    for (let i = 0; i + n <= words.length; i++) {
      const hex = PALETTE[words.slice(i, i + n).join(' ')];
      if (hex) return hex;
    }
  }
  return UNKNOWN_COLOUR;
}

/**
 * Silhouettes drawn on a 400x400 canvas. `%F` is the product colour (or the pattern laid over
 * it), `%D` a darker shade for seams and soles, `%L` a lighter one for linings and glass.
 * `body` is drawn twice when the colour names a pattern, so only body shapes carry it.
 */
interface Silhouette {
  body: string;
  details?: string;
}

const SILHOUETTES: Record<string, Silhouette> = {
  shirt: {
    body: '<path d="M140 70 L175 60 L200 85 L225 60 L260 70 L330 110 L305 165 L280 150 L280 340 L120 340 L120 150 L95 165 L70 110 Z" fill="%F"/>',
    details:
      '<path d="M175 60 L200 105 L225 60 M200 105 L200 340" stroke="%D" stroke-width="4" fill="none"/><circle cx="212" cy="150" r="5" fill="%D"/><circle cx="212" cy="210" r="5" fill="%D"/><circle cx="212" cy="270" r="5" fill="%D"/>',
  },
  tee: {
    body: '<path d="M145 70 Q200 100 255 70 L330 105 L305 160 L275 145 L275 340 L125 340 L125 145 L95 160 L70 105 Z" fill="%F"/>',
    details: '<path d="M145 70 Q200 110 255 70" stroke="%D" stroke-width="6" fill="none"/>',
  },
  sweater: {
    body: '<path d="M145 70 Q200 95 255 70 L320 95 L345 300 L305 305 L285 160 L285 340 L115 340 L115 160 L95 305 L55 300 L80 95 Z" fill="%F"/>',
    details:
      '<path d="M115 322 L285 322 M58 282 L97 278 M342 282 L303 278 M150 78 Q200 105 250 78" stroke="%D" stroke-width="6" fill="none"/>',
  },
  jacket: {
    body: '<path d="M150 65 L200 80 L250 65 L320 95 L345 310 L305 315 L290 170 L290 345 L110 345 L110 170 L95 315 L55 310 L80 95 Z" fill="%F"/>',
    details:
      '<path d="M200 80 L200 345 M150 65 L170 120 L200 80 L230 120 L250 65 M130 250 L170 250 M230 250 L270 250" stroke="%D" stroke-width="5" fill="none"/>',
  },
  vest: {
    body: '<path d="M150 65 L200 95 L250 65 L275 80 L275 150 L290 170 L290 345 L110 345 L110 170 L125 150 L125 80 Z" fill="%F"/>',
    details:
      '<path d="M200 95 L200 345 M120 200 L290 200 M110 260 L290 260" stroke="%D" stroke-width="4" fill="none"/>',
  },
  dress: {
    body: '<path d="M165 60 L185 60 Q200 80 215 60 L235 60 L245 140 L235 170 L310 345 L90 345 L165 170 L155 140 Z" fill="%F"/>',
    details: '<path d="M162 170 L238 170" stroke="%D" stroke-width="6" fill="none"/>',
  },
  pants: {
    body: '<path d="M130 60 L270 60 L290 345 L215 345 L200 150 L185 345 L110 345 Z" fill="%F"/>',
    details:
      '<path d="M130 80 L270 80 M200 80 L200 150" stroke="%D" stroke-width="5" fill="none"/>',
  },
  shorts: {
    body: '<path d="M120 110 L280 110 L300 280 L215 290 L200 200 L185 290 L100 280 Z" fill="%F"/>',
    details:
      '<path d="M120 130 L280 130 M200 130 L200 200" stroke="%D" stroke-width="5" fill="none"/>',
  },
  shoe: {
    body: '<path d="M70 275 L88 195 Q110 175 140 185 L190 200 Q230 178 250 150 L282 150 Q300 215 330 235 Q345 250 340 275 Z" fill="%F"/>',
    details:
      '<rect x="62" y="272" width="286" height="26" rx="10" fill="%D"/><path d="M200 195 L230 215 M215 182 L245 202" stroke="%L" stroke-width="5"/>',
  },
  boot: {
    body: '<path d="M140 70 L240 70 L245 225 Q312 238 332 272 L332 290 L132 290 L136 225 Z" fill="%F"/>',
    details:
      '<rect x="124" y="286" width="214" height="28" rx="8" fill="%D"/><path d="M150 95 L230 95" stroke="%D" stroke-width="6"/>',
  },
  sandal: {
    body: '<path d="M82 268 Q78 238 122 236 L298 232 Q340 238 336 268 Q332 292 300 292 L112 294 Q82 294 82 268 Z" fill="%F"/>',
    details:
      '<path d="M150 240 Q175 160 215 238 M235 236 Q262 170 290 234" stroke="%D" stroke-width="18" fill="none" stroke-linecap="round"/>',
  },
  hat: {
    body: '<ellipse cx="200" cy="258" rx="145" ry="36" fill="%F"/><path d="M118 258 Q118 130 200 128 Q282 130 282 258 Z" fill="%F"/>',
    details: '<path d="M122 225 Q200 245 278 225" stroke="%D" stroke-width="10" fill="none"/>',
  },
  socks: {
    body: '<path d="M150 60 L230 60 L230 225 Q230 258 262 268 L320 288 Q348 300 336 330 Q325 352 292 344 L182 318 Q150 308 150 268 Z" fill="%F"/>',
    details: '<path d="M150 90 L230 90 M150 110 L230 110" stroke="%D" stroke-width="6"/>',
  },
  scarf: {
    body: '<path d="M120 70 Q200 40 280 70 L280 120 Q200 95 120 120 Z" fill="%F"/><rect x="145" y="110" width="55" height="220" fill="%F"/><rect x="205" y="110" width="55" height="190" fill="%F"/>',
    details:
      '<path d="M150 330 L150 350 M165 330 L165 350 M180 330 L180 350 M195 330 L195 350 M210 300 L210 320 M225 300 L225 320 M240 300 L240 320 M255 300 L255 320" stroke="%D" stroke-width="4"/>',
  },
  bag: {
    body: '<path d="M100 160 L300 160 L322 340 L78 340 Z" fill="%F"/>',
    details:
      '<path d="M150 160 Q150 80 200 80 Q250 80 250 160" stroke="%D" stroke-width="14" fill="none"/>',
  },
  backpack: {
    body: '<rect x="110" y="90" width="180" height="250" rx="45" fill="%F"/>',
    details:
      '<rect x="140" y="225" width="120" height="85" rx="16" fill="%D"/><path d="M175 90 Q200 55 225 90" stroke="%D" stroke-width="10" fill="none"/>',
  },
  throw: {
    body: '<rect x="70" y="120" width="260" height="62" rx="14" fill="%F"/><rect x="70" y="186" width="260" height="62" rx="14" fill="%F"/><rect x="70" y="252" width="260" height="62" rx="14" fill="%F"/>',
    details:
      '<path d="M330 140 L345 140 M330 160 L345 160 M330 206 L345 206 M330 226 L345 226 M330 272 L345 272 M330 292 L345 292" stroke="%D" stroke-width="4"/>',
  },
  cushion: {
    body: '<path d="M90 110 Q200 135 310 110 Q290 220 310 330 Q200 305 90 330 Q110 220 90 110 Z" fill="%F"/>',
    details: '<circle cx="200" cy="220" r="9" fill="%D"/>',
  },
  bed: {
    body: '<rect x="60" y="200" width="280" height="110" rx="10" fill="%F"/>',
    details:
      '<rect x="70" y="100" width="260" height="110" rx="14" fill="%D"/><rect x="90" y="165" width="100" height="40" rx="12" fill="%L"/><rect x="210" y="165" width="100" height="40" rx="12" fill="%L"/><rect x="70" y="310" width="20" height="30" fill="%D"/><rect x="310" y="310" width="20" height="30" fill="%D"/>',
  },
  towel: {
    body: '<rect x="120" y="95" width="160" height="240" rx="6" fill="%F"/>',
    details:
      '<path d="M90 95 L310 95" stroke="%D" stroke-width="10"/><path d="M120 290 L280 290 M120 305 L280 305" stroke="%L" stroke-width="6"/>',
  },
  rug: {
    body: '<rect x="70" y="110" width="260" height="190" fill="%F"/>',
    details:
      '<rect x="92" y="132" width="216" height="146" fill="none" stroke="%D" stroke-width="8"/><path d="M70 100 L70 110 M100 100 L100 110 M130 100 L130 110 M160 100 L160 110 M190 100 L190 110 M220 100 L220 110 M250 100 L250 110 M280 100 L280 110 M310 100 L310 110 M70 300 L70 312 M100 300 L100 312 M130 300 L130 312 M160 300 L160 312 M190 300 L190 312 M220 300 L220 312 M250 300 L250 312 M280 300 L280 312 M310 300 L310 312" stroke="%D" stroke-width="4"/>',
  },
  mug: {
    body: '<rect x="115" y="130" width="150" height="175" rx="18" fill="%F"/>',
    details:
      '<path d="M265 170 Q325 170 325 215 Q325 262 265 262" stroke="%F" stroke-width="22" fill="none"/><ellipse cx="190" cy="138" rx="70" ry="10" fill="%D"/>',
  },
  pan: {
    body: '<circle cx="170" cy="210" r="110" fill="%F"/><rect x="270" y="195" width="115" height="30" rx="12" fill="%F"/>',
    details: '<circle cx="170" cy="210" r="82" fill="%D" opacity="0.35"/>',
  },
  board: {
    body: '<rect x="80" y="115" width="215" height="200" rx="32" fill="%F"/><rect x="290" y="190" width="60" height="50" rx="18" fill="%F"/>',
    details: '<circle cx="325" cy="215" r="9" fill="%D"/>',
  },
  apron: {
    body: '<path d="M160 100 L240 100 L240 150 Q300 158 300 195 L290 340 L110 340 L100 195 Q100 158 160 150 Z" fill="%F"/>',
    details:
      '<path d="M160 100 Q200 30 240 100" stroke="%D" stroke-width="8" fill="none"/><rect x="150" y="230" width="100" height="60" fill="none" stroke="%D" stroke-width="5"/>',
  },
  plate: {
    body: '<circle cx="200" cy="210" r="135" fill="%F"/>',
    details: '<circle cx="200" cy="210" r="92" fill="none" stroke="%D" stroke-width="5"/>',
  },
  tent: {
    body: '<path d="M200 75 L345 320 L55 320 Z" fill="%F"/>',
    details:
      '<path d="M200 160 L252 320 L148 320 Z" fill="%D"/><path d="M200 75 L200 50" stroke="%D" stroke-width="6"/>',
  },
  sleepingBag: {
    body: '<path d="M150 65 Q200 45 250 65 L272 200 L248 345 L152 345 L128 200 Z" fill="%F"/>',
    details:
      '<ellipse cx="200" cy="105" rx="38" ry="28" fill="%D"/><path d="M235 140 L228 330" stroke="%D" stroke-width="4"/>',
  },
  chair: {
    body: '<path d="M110 120 L290 120 L280 230 L120 230 Z" fill="%F"/><path d="M105 230 L295 230 L285 270 L115 270 Z" fill="%F"/>',
    details:
      '<path d="M125 270 L275 345 M275 270 L125 345" stroke="%D" stroke-width="10" stroke-linecap="round"/>',
  },
  stove: {
    body: '<rect x="75" y="170" width="250" height="140" rx="12" fill="%F"/><rect x="75" y="80" width="250" height="85" rx="10" fill="%F"/>',
    details:
      '<ellipse cx="145" cy="220" rx="38" ry="14" fill="%D"/><ellipse cx="255" cy="220" rx="38" ry="14" fill="%D"/><rect x="75" y="160" width="250" height="12" fill="%D"/>',
  },
  bottle: {
    body: '<path d="M168 95 L232 95 Q262 110 262 150 L262 330 Q262 345 247 345 L153 345 Q138 345 138 330 L138 150 Q138 110 168 95 Z" fill="%F"/>',
    details: '<rect x="165" y="55" width="70" height="45" rx="10" fill="%D"/>',
  },
  lantern: {
    body: '<rect x="135" y="130" width="130" height="170" rx="22" fill="%F"/><path d="M150 130 L170 95 L230 95 L250 130 Z" fill="%F"/>',
    details:
      '<rect x="160" y="150" width="80" height="125" rx="14" fill="%L"/><path d="M165 95 Q200 40 235 95" stroke="%D" stroke-width="8" fill="none"/><rect x="125" y="300" width="150" height="22" rx="8" fill="%D"/>',
  },
  lamp: {
    body: '<path d="M130 85 L270 85 L305 190 L95 190 Z" fill="%F"/><ellipse cx="200" cy="325" rx="70" ry="16" fill="%F"/>',
    details: '<rect x="192" y="190" width="16" height="130" fill="%D"/>',
  },
  fitting: {
    body: '<path d="M200 80 L304 140 L304 260 L200 320 L96 260 L96 140 Z" fill="%F"/>',
    details:
      '<circle cx="200" cy="200" r="62" fill="%D"/><circle cx="200" cy="200" r="44" fill="%L"/>',
  },
  plank: {
    body: '<path d="M55 255 L300 115 L345 145 L100 285 Z" fill="%F"/><path d="M100 285 L345 145 L345 175 L100 315 Z" fill="%F"/>',
    details:
      '<path d="M55 255 L100 285 L100 315 L55 285 Z" fill="%D"/><path d="M120 230 L250 155 M150 245 L290 165" stroke="%D" stroke-width="3" opacity="0.6"/>',
  },
  screw: {
    body: '<ellipse cx="200" cy="95" rx="75" ry="26" fill="%F"/><path d="M170 105 L230 105 L226 300 L200 345 L174 300 Z" fill="%F"/>',
    details:
      '<path d="M175 95 L225 95 M200 80 L200 110" stroke="%D" stroke-width="7"/><path d="M170 140 L230 125 M171 175 L229 160 M172 210 L228 195 M173 245 L227 230 M174 280 L226 265" stroke="%D" stroke-width="5"/>',
  },
  rope: {
    body: '<circle cx="200" cy="210" r="125" fill="%F"/>',
    details:
      '<circle cx="200" cy="210" r="100" fill="none" stroke="%D" stroke-width="5"/><circle cx="200" cy="210" r="72" fill="none" stroke="%D" stroke-width="5"/><circle cx="200" cy="210" r="44" fill="%L"/>',
  },
  hammer: {
    body: '<path d="M110 95 L270 95 Q300 95 315 130 L250 130 L250 150 L110 150 Z" fill="%F"/>',
    details: '<rect x="165" y="150" width="34" height="200" rx="12" fill="%D"/>',
  },
  drill: {
    body: '<rect x="90" y="110" width="200" height="80" rx="30" fill="%F"/><path d="M150 185 L215 185 L200 300 L140 300 Z" fill="%F"/>',
    details:
      '<rect x="290" y="135" width="55" height="30" rx="6" fill="%D"/><rect x="120" y="295" width="110" height="45" rx="10" fill="%D"/>',
  },
  candle: {
    body: '<rect x="125" y="150" width="150" height="180" rx="20" fill="%F"/>',
    details:
      '<ellipse cx="200" cy="160" rx="60" ry="10" fill="%L"/><path d="M200 155 L200 130" stroke="#333333" stroke-width="4"/><path d="M200 70 Q222 105 200 128 Q178 105 200 70 Z" fill="#f5a524"/>',
  },
  diffuser: {
    body: '<path d="M150 200 L250 200 Q270 200 270 220 L270 330 L130 330 L130 220 Q130 200 150 200 Z" fill="%F"/>',
    details:
      '<rect x="182" y="170" width="36" height="32" fill="%D"/><path d="M190 172 L150 60 M200 172 L200 55 M210 172 L255 62" stroke="%D" stroke-width="5"/>',
  },
  box: {
    body: '<path d="M200 90 L320 145 L200 200 L80 145 Z" fill="%F"/><path d="M80 145 L200 200 L200 330 L80 275 Z" fill="%F"/><path d="M320 145 L200 200 L200 330 L320 275 Z" fill="%F"/>',
    details:
      '<path d="M80 145 L200 200 L200 330 L80 275 Z" fill="%D" opacity="0.3"/><path d="M200 200 L200 330" stroke="%D" stroke-width="4"/>',
  },
};

const SILHOUETTE_BY_TYPE: Record<string, keyof typeof SILHOUETTES> = {
  shirts: 'shirt',
  't-shirts': 'tee',
  knitwear: 'sweater',
  jackets: 'jacket',
  vests: 'vest',
  dresses: 'dress',
  pants: 'pants',
  shorts: 'shorts',
  shoes: 'shoe',
  boots: 'boot',
  sandals: 'sandal',
  hats: 'hat',
  socks: 'socks',
  accessories: 'scarf',
  bags: 'bag',
  backpacks: 'backpack',
  throws: 'throw',
  cushions: 'cushion',
  bedding: 'bed',
  towels: 'towel',
  rugs: 'rug',
  drinkware: 'mug',
  cookware: 'pan',
  'kitchen tools': 'board',
  'kitchen textiles': 'apron',
  tableware: 'plate',
  tents: 'tent',
  'sleeping gear': 'sleepingBag',
  'camp furniture': 'chair',
  'camp kitchen': 'stove',
  'water bottles': 'bottle',
  'camp lighting': 'lantern',
  lamps: 'lamp',
  hardware: 'fitting',
  lumber: 'plank',
  fasteners: 'screw',
  'rope & cord': 'rope',
  'hand tools': 'hammer',
  'power tools': 'drill',
  candles: 'candle',
  'home fragrance': 'diffuser',
};

function silhouetteFor(productType: string): Silhouette {
  const name = SILHOUETTE_BY_TYPE[productType.trim().toLowerCase()] ?? 'box';
  return SILHOUETTES[name]!;
}

function rgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function mix(hex: string, other: string, amount: number): string {
  const a = rgb(hex);
  const b = rgb(other);
  const c = a.map((v, i) => Math.round(v + (b[i]! - v) * amount));
  return `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

function luminance(hex: string): number {
  const [r, g, b] = rgb(hex);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

/** A light product on a light tint would vanish, so pale colours sit on a mid-grey tint. */
function backgroundFor(hex: string): string {
  return luminance(hex) > 0.75 ? mix(hex, '#4a5058', 0.5) : mix(hex, '#ffffff', 0.75);
}

function patternFor(colourName: string, dark: string, light: string): string | undefined {
  const name = colourName.toLowerCase();
  if (/stripe/.test(name))
    return `<pattern id="p" width="40" height="40" patternUnits="userSpaceOnUse"><rect y="0" width="40" height="12" fill="${light}"/></pattern>`;
  if (/plaid|check|tartan/.test(name))
    return `<pattern id="p" width="48" height="48" patternUnits="userSpaceOnUse"><rect width="48" height="14" fill="${dark}" opacity="0.45"/><rect width="14" height="48" fill="${dark}" opacity="0.45"/><rect x="30" width="3" height="48" fill="${light}" opacity="0.6"/></pattern>`;
  if (/floral/.test(name))
    return `<pattern id="p" width="44" height="44" patternUnits="userSpaceOnUse"><circle cx="11" cy="11" r="5" fill="${light}"/><circle cx="33" cy="33" r="5" fill="${light}"/></pattern>`;
  return undefined;
}

/** The colour an image shows: its variants' Color (or Finish) option, else the product's colour tag. */
function colourNameFor(product: Product, image: Image): string {
  const index = product.options.findIndex((o) => /^(colou?r|finish)$/i.test(o.name));
  if (index >= 0 && index < 3) {
    const key = `option${index + 1}` as 'option1' | 'option2' | 'option3';
    const shown = product.variants.find((v) => image.variant_ids.includes(v.id));
    const value = (shown ?? product.variants[0])?.[key] ?? product.options[index]?.values[0];
    if (value) return value;
  }
  const tag = product.tags.find((t) => t.toLowerCase().startsWith('color:'));
  return tag ? tag.slice('color:'.length) : '';
}

function illustrationSvg(product: Product, image: Image): string {
  const colourName = colourNameFor(product, image);
  const fill = colourHex(colourName);
  const dark = luminance(fill) < 0.2 ? mix(fill, '#ffffff', 0.35) : mix(fill, '#000000', 0.35);
  const light = mix(fill, '#ffffff', 0.6);
  const pattern = patternFor(colourName, dark, light);
  const { body, details = '' } = silhouetteFor(product.product_type);
  const paint = (markup: string, f: string) =>
    markup.replaceAll('%F', f).replaceAll('%D', dark).replaceAll('%L', light);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}">`,
    pattern ? `<defs>${pattern}</defs>` : '',
    `<rect width="${SIZE}" height="${SIZE}" fill="${backgroundFor(fill)}"/>`,
    '<ellipse cx="200" cy="360" rx="140" ry="18" fill="#000000" opacity="0.12"/>',
    `<g stroke="${dark}" stroke-width="3" stroke-linejoin="round">${paint(body, fill)}</g>`,
    pattern ? paint(body, 'url(#p)') : '',
    paint(details, fill),
    '</svg>',
  ].join('');
}

interface CatalogueRenderer {
  bySrc: Map<string, { product: Product; image: Image }>;
  rendered: Map<string, Promise<Uint8Array<ArrayBuffer>>>;
}

const renderers = new WeakMap<DemoCatalogue, CatalogueRenderer>();

function rendererFor(catalogue: DemoCatalogue): CatalogueRenderer {
  let renderer = renderers.get(catalogue);
  if (!renderer) {
    const bySrc = new Map<string, { product: Product; image: Image }>();
    for (const product of catalogue.products)
      for (const image of product.images) {
        const key = cdnName(image.src);
        if (key) bySrc.set(key, { product, image });
      }
    renderer = { bySrc, rendered: new Map() };
    renderers.set(catalogue, renderer);
  }
  return renderer;
}

/**
 * The image's name under the shop's `/cdn/`: `/cdn/x-1.png`, `x-1.png` (what the store
 * simulator passes its renderer), `cdn/x-1.png?v=2` and `http://shop/shops/s/cdn/x-1.png` all
 * name `x-1.png`.
 */
function cdnName(src: string): string | undefined {
  let pathname: string;
  try {
    pathname = new URL(src, 'http://shop.invalid/').pathname;
  } catch {
    return undefined;
  }
  const cdn = pathname.lastIndexOf('/cdn/');
  return cdn >= 0 ? pathname.slice(cdn + '/cdn/'.length) : pathname.replace(/^\/+/, '');
}

/**
 * The PNG illustration for one of the catalogue's image paths (`/cdn/<handle>-<n>.png`, or just
 * `<handle>-<n>.png`), or undefined when no product image has that path. Drawn once per image
 * and kept in memory.
 */
export async function renderDemoImage(
  imagePath: string,
  catalogue: DemoCatalogue = loadDemoCatalogue(),
): Promise<DemoImage | undefined> {
  const renderer = rendererFor(catalogue);
  const key = cdnName(imagePath);
  const entry = key === undefined ? undefined : renderer.bySrc.get(key);
  if (!key || !entry) return undefined;
  let png = renderer.rendered.get(key);
  if (!png) {
    png = sharp(Buffer.from(illustrationSvg(entry.product, entry.image)))
      .png()
      .toBuffer()
      .then((buffer) => new Uint8Array(buffer));
    renderer.rendered.set(key, png);
    png.catch(() => renderer.rendered.delete(key));
  }
  return { contentType: 'image/png', body: await png };
}
