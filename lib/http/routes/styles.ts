import { idParams } from '../../contract/common';
import {
  createStyleRequest,
  createStyleResponse,
  retrieveStyleResponse,
  updateStyleRequest,
  updateStyleResponse,
} from '../../contract/styles';
import { textEmbedder } from '../../embeddings';
import { createStyle, getStyle, updateStyle } from '../../profiles/service';
import { defineOperation } from '../operation';
import type { Api } from '../openapi';

export function styleRoutes(api: Api): void {
  defineOperation(api, {
    auth: 'developer',
    method: 'post',
    path: '/styles/create',
    operationId: 'createStyle',
    summary: "Create a profile's style; its text is embedded for personalized search",
    tags: ['Styles'],
    body: createStyleRequest,
    invalidCode: 'STYLE_PROFILE_CREATION_FAILED',
    failureCode: 'STYLE_PROFILE_CREATION_FAILED',
    keep: ['STYLE_EXISTS'],
    successFlag: true,
    success: { status: 201, schema: createStyleResponse, description: 'The new style' },
    failures: [
      { status: 400, codes: ['STYLE_PROFILE_CREATION_FAILED'], description: 'Invalid input' },
      { status: 404, codes: ['STYLE_PROFILE_CREATION_FAILED'], description: 'No such profile' },
      { status: 409, codes: ['STYLE_EXISTS'], description: 'The profile already has a style' },
    ],
  }).handle(async ({ db, caller, body }) => {
    const style = await createStyle(db, textEmbedder(), caller, body.profile_id, body.text);
    return { success: true, style, id: style.id, code: 'STYLE_CREATED' };
  });

  defineOperation(api, {
    auth: 'developer',
    method: 'put',
    path: '/styles/update/{id}',
    operationId: 'updateStyle',
    summary: 'Replace the style text; its embedding is regenerated in the same write',
    tags: ['Styles'],
    params: idParams,
    body: updateStyleRequest,
    invalidCode: 'STYLE_PROFILE_UPDATE_FAILED',
    failureCode: 'STYLE_PROFILE_UPDATE_FAILED',
    successFlag: true,
    success: { status: 200, schema: updateStyleResponse, description: 'The updated style' },
    failures: [
      { status: 400, codes: ['STYLE_PROFILE_UPDATE_FAILED'], description: 'Invalid input' },
      { status: 404, codes: ['STYLE_PROFILE_UPDATE_FAILED'], description: 'No such style' },
    ],
  }).handle(async ({ db, caller, params, body }) => {
    const style = await updateStyle(db, textEmbedder(), caller, params.id, body.text);
    return { success: true, style, id: style.id, code: 'STYLE_UPDATED' };
  });

  for (const [path, operationId] of [
    ['/styles/retrieve/{id}', 'retrieveStyle'],
    ['/styles/{id}', 'getStyle'],
  ] as const) {
    defineOperation(api, {
      auth: 'developer',
      method: 'get',
      path,
      operationId,
      summary: path === '/styles/{id}' ? 'Alias of GET /styles/retrieve/{id}' : 'Retrieve a style',
      tags: ['Styles'],
      params: idParams,
      invalidCode: 'STYLE_NOT_FOUND',
      successFlag: true,
      success: { status: 200, schema: retrieveStyleResponse, description: 'The style' },
      failures: [{ status: 404, codes: ['STYLE_NOT_FOUND'], description: 'No such style' }],
    }).handle(async ({ db, caller, params }) => ({
      success: true,
      style: await getStyle(db, caller, params.id),
      code: 'STYLE_RETRIEVED',
    }));
  }
}
