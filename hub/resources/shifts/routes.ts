/** A shift's routes beyond the engine's open (POST /api/shifts), list and read: cash movements, the close with its count, the shift report. */
import { z } from 'zod';
import { bodyErrors, ERR, idempotencyHeader } from '../../http/api-docs.js';
import { requireRight } from '../../http/caller.js';
import { idKey } from '../../engine/fields.js';
import { callerOf } from '../../http/handler.js';
import { model, named, routes } from '../../http/route.js';
import { job, queuedJob } from '../../printing/routes.js';
import { shifts } from './resource.js';
import { closeSchema, movementSchema, printSchema, type ShiftActions } from './service.js';

const tags = [shifts.title];
// The shift's key (shifts.key.schema), typed.
const params = z.object({ id: idKey().meta({ param: { description: "The Shift's key `id`." } }) });
const noShift = ERR.notFound('No shift has this id.');
const closed = ERR.stateForbids('The shift is closed; or the printer is inactive or a kitchen display.');
const ownOnly = 'A register acting on another register’s shift (`memberName` `id`)';

export const shiftRoutes = routes<{ shifts: ShiftActions }>((route) => [
  route({
    method: 'post',
    path: '/api/shifts/{id}/movements',
    operationId: 'shifts.movement',
    tags,
    summary: 'Put cash into, or take cash out of, an open shift’s drawer',
    description:
      'Requires CashMovement. `In`: cash put into the drawer (change from the bank); `Out`: taken out (a supplier paid in cash, a ' +
      'deposit). The reason is kept with who and when, printed on the shift report and counted in what the drawer should hold. ' +
      'A register records movements of its own shift only; the back office of any.',
    rights: ['CashMovement'],
    authorize: (caller) => requireRight(caller, 'CashMovement'),
    params,
    headers: idempotencyHeader(),
    body: { required: true, schema: named('CashMovement', movementSchema) },
    responses: { 200: { description: 'The shift with the movement.', schema: model('shifts') } },
    errors: [...bodyErrors(`An invalid body (kind, amount > 0, a reason); ${ownOnly}.`), ERR.unauthenticated(), ERR.missingRight(), closed, noShift, ERR.keyReused()],
    handler:
      ({ shifts: actions }) =>
      ({ params, body }, _req, res) => {
        res.json(actions.movement(callerOf(res), params.id, body));
      },
  }),
  route({
    method: 'post',
    path: '/api/shifts/{id}/close',
    operationId: 'shifts.close',
    tags,
    summary: 'Close a shift with a count of its drawer',
    description:
      'Requires CashCount. The drawer is counted (`counted`, or by note and coin in `denominations`, or both, which must agree) ' +
      'against what it should hold: the opening float, the cash the register took while the shift was open (Cash-category payment ' +
      'types, change deducted) and the cash put in, less the cash taken out. The count is stored as a cash count (`countId`, ' +
      'GET /api/cashcounts) and its figures on the shift; from then on the register’s closes count in no shift until the next one ' +
      'opens. `print` queues the shift report on the receipt printer in the same transaction (`{}`: the register’s ' +
      'DefaultOrderEndpointName). A register closes its own shift only; the back office any.',
    rights: ['CashCount'],
    authorize: (caller) => requireRight(caller, 'CashCount'),
    params,
    headers: idempotencyHeader(),
    body: { required: true, schema: named('ShiftCloseContext', closeSchema) },
    responses: { 200: { description: 'The closed shift.', schema: model('shifts') } },
    errors: [
      ...bodyErrors(`No counted and no denominations, denominations that do not add up to counted, no or an unknown printer; ${ownOnly}.`),
      ERR.unauthenticated(),
      ERR.missingRight(),
      closed,
      noShift,
      ERR.keyReused(),
    ],
    handler:
      ({ shifts: actions }) =>
      ({ params, body }, _req, res) => {
        res.json(actions.close(callerOf(res), params.id, body));
      },
  }),
  route({
    method: 'post',
    path: '/api/shifts/{id}/print',
    operationId: 'shifts.print',
    tags,
    summary: 'Print the shift report on the receipt printer',
    description:
      'Queues the shift report (so far, marked as still open, while the shift is open): opening float, sales by payment type, each ' +
      'cash movement, what the drawer should hold, the count by note and coin and the difference. Whoever reads the shift may print ' +
      "it: ReportRead, or the register whose shift it is. The printer is `orderEndpointName`, else the register's " +
      "DefaultOrderEndpointName, else the calling device's. The body is optional.",
    rights: ['ReportRead'],
    params,
    headers: idempotencyHeader(),
    body: { required: false, schema: named('ShiftPrintContext', printSchema) },
    responses: { 202: { description: 'The report is durably queued; the job as stored.', schema: named('ShiftReportJob', z.object({ ...job, shiftId: z.string() })) } },
    errors: [...bodyErrors('An invalid body; no or an unknown printer.'), ERR.unauthenticated(), ERR.missingRight('Another register’s shift without ReportRead.'), closed, noShift, ERR.keyReused()],
    handler:
      ({ shifts: actions }) =>
      ({ params, body }, _req, res) => {
        const queued = actions.print(callerOf(res), params.id, body);
        res.status(202).json({ ...queuedJob(queued), shiftId: queued.refId });
      },
  }),
]);
