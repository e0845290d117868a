import {
  legacySearchRequest,
  legacySearchResponse,
  MAX_RESULT_CAP,
  searchHeaders,
  searchProductsRequest,
  searchProductsResponse,
} from '../../contract/search';
import { isOperatorToken } from '../../auth/operator';
import { ApiError } from '../../errors';
import { recordSearch } from '../../metrics/registry';
import { legacySearch } from '../../search/results/legacy-search';
import { searchProducts } from '../../search/results/product-search';
import { defineOperation } from '../operation';
import type { Api } from '../openapi';

export function searchRoutes(api: Api): void {
  defineOperation(api, {
    auth: 'developer',
    method: 'post',
    path: '/search/products',
    operationId: 'searchProducts',
    summary: 'Hybrid (full-text + vector) product search, optionally personalized',
    description:
      `Ranks by score = (query_weight * sim(query, product) + style_weight * sim(style, product)) / ` +
      `(query_weight + style_weight); the style term applies only when the profile has a style. ` +
      `max_result_count (alias result_count) is 1 to ${MAX_RESULT_CAP}. store_id or store_domain ` +
      `limits the search to one store; with neither, every store open to the caller is searched. ` +
      `image_url needs the pro plan. explain: true (operators, with X-Operator-Token) adds ` +
      `score_details to each result.`,
    tags: ['Search'],
    body: searchProductsRequest,
    headers: searchHeaders,
    invalidCode: 'INVALID_REQUEST',
    messageField: true,
    emptyOnFailure: ['results', 'product_ids'],
    success: {
      status: 200,
      schema: searchProductsResponse,
      description: 'SEARCH_SUCCESS with results, or NO_RESULTS_FOUND with empty arrays',
    },
    failures: [
      { status: 400, codes: ['INVALID_REQUEST'], description: 'Invalid request parameters' },
      {
        status: 403,
        codes: ['FORBIDDEN_FEATURE'],
        description: 'Image search on a free plan, or explain without the operator token',
      },
      {
        status: 404,
        codes: ['STORE_NOT_FOUND', 'PROFILE_NOT_FOUND'],
        description: 'Unknown store or profile',
      },
    ],
  }).handle(({ db, caller, body, header }) => {
    if (body.explain && !isOperatorToken(header('x-operator-token'))) {
      throw new ApiError(
        'FORBIDDEN_FEATURE',
        'explain is for operators: send the operator token in the X-Operator-Token header',
        403,
        'explain requires the operator token in the X-Operator-Token header',
      );
    }
    return searchProducts(db, caller, body).then((a) => recordSearch('search_products', a));
  });

  defineOperation(api, {
    auth: 'developer',
    method: 'post',
    path: '/search',
    operationId: 'legacySearch',
    summary: 'Legacy item search: results in the store platform product shape',
    tags: ['Search'],
    body: legacySearchRequest,
    invalidCode: 'BAD_REQUEST_ERROR',
    messageField: true,
    emptyOnFailure: ['results'],
    success: {
      status: 200,
      schema: legacySearchResponse,
      description: 'SEARCH_SUCCESS with results, or NO_RESULTS_FOUND with an empty list',
    },
    failures: [
      {
        status: 400,
        codes: ['BAD_REQUEST_ERROR'],
        description: 'Invalid input, or user_id is not a profile of the caller',
      },
      { status: 403, codes: ['FORBIDDEN'], description: "The store's policy excludes the caller" },
      { status: 404, codes: ['STORE_NOT_FOUND'], description: 'Unknown store' },
    ],
  }).handle(({ db, caller, body }) =>
    legacySearch(db, caller, body).then((a) => recordSearch('legacy_search', a)),
  );
}
