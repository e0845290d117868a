import { idParams } from '../../contract/common';
import { ucpSettingsRequest, ucpSettingsResponse } from '../../contract/ucp-settings';
import { defineOperation } from '../../http/operation';
import type { Api } from '../../http/openapi';
import { operatorStoreOperation } from '../../http/routes/admin-stores';
import { requireStore } from '../../stores/registry';
import { writeUcpSettings } from '../settings';

/** The operator's side of a store's UCP settings (the CLI's `store ucp`). */
export function adminUcpSettingsRoutes(api: Api): void {
  defineOperation(api, {
    ...operatorStoreOperation,
    method: 'put',
    path: '/admin/stores/{id}/ucp',
    operationId: 'setStoreUcpSettings',
    summary: "Set a store's UCP settings: agent access and payment handlers",
    description:
      'What the request leaves out keeps its value. A store answers UCP at /api/ucp/{id} once it is verified.',
    params: idParams,
    body: ucpSettingsRequest,
    success: { status: 200, schema: ucpSettingsResponse, description: 'The settings now' },
    failures: [
      { status: 400, codes: ['INVALID_REQUEST'], description: 'Invalid input' },
      { status: 404, codes: ['STORE_NOT_FOUND'], description: 'No such store' },
    ],
  }).handle(async ({ db, params, body }) => {
    const store = await requireStore(db, params.id);
    const settings = await writeUcpSettings(db, store.id, {
      ...(body.agent_access ? { agentAccess: body.agent_access } : {}),
      ...(body.payment_handlers ? { paymentHandlers: body.payment_handlers } : {}),
    });
    return {
      code: 'STORE_UCP_SETTINGS_UPDATED',
      store_id: store.id,
      agent_access: settings.agentAccess,
      payment_handlers: settings.paymentHandlers,
    };
  });
}
