// The field rules of a create (spec §2.1, §2.3): the method exists and belongs to the currency; a payout carries
// the number and bank its method requires. A rule refuses by throwing a DomainError (planCreate returns it as a value).
import type { OperationKind } from './operation.js';
import type { DomainContext } from './state.js';
import type { MethodDef, WorldIndex } from './world.js';
import type { CreateParams } from './create.js';
import { DomainError } from './errors.js';
import { echo } from '../contract/echo.js';

/** The method, checked to exist and to belong to the currency (spec §2.1). */
export function methodFor(world: WorldIndex, methodId: string, currency: string): MethodDef {
  const method = world.methods.get(methodId);
  if (!method) {
    throw new DomainError(
      'unknown_method',
      `method ${echo(methodId)} is not supported; use one of ${[...world.methods.keys()].join(', ')}`,
      'method',
    );
  }
  if (!world.data.currencies.includes(currency)) {
    throw new DomainError(
      'unsupported_currency',
      `currency ${echo(currency)} is not supported; use one of ${world.data.currencies.join(', ')}`,
      'currency',
    );
  }
  if (method.currency !== currency) {
    throw new DomainError(
      'method_currency_mismatch',
      `method ${methodId} belongs to ${method.currency}, not ${echo(currency)}`,
      'currency',
    );
  }
  return method;
}

/** A create's fields, checked against its method; returns the method. */
export function validate(ctx: DomainContext, kind: OperationKind, p: CreateParams): MethodDef {
  const { world } = ctx;
  const method = methodFor(world, p.method, p.currency);
  if (kind === 'payout') {
    if (method.payout_number === 'required' && !p.number) {
      throw new DomainError('number_required', `number is required for ${p.method} payouts`, 'number');
    }
    if (method.payout_bankname === 'required') {
      if (!p.bankname)
        throw new DomainError(
          'bankname_required',
          `bankname is required for ${p.method} payouts (a bank code such as sber)`,
          'bankname',
        );
      const bank = world.banks.get(p.bankname);
      // Both errors name the codes that would do, so that a wrong one is fixed without reading the fixtures.
      const codes = world.data.banks.filter((b) => b.currency === method.currency).map((b) => b.code);
      const valid = `; the ${method.currency} banks are ${codes.join(', ')}`;
      if (!bank)
        throw new DomainError(
          'unknown_bank',
          `bankname ${echo(p.bankname)} is not in the ${method.currency} bank dictionary${valid}`,
          'bankname',
        );
      if (bank.currency !== method.currency) {
        throw new DomainError(
          'bank_currency_mismatch',
          `bank ${p.bankname} does not belong to ${method.currency}${valid}`,
          'bankname',
        );
      }
    }
  }
  return method;
}
