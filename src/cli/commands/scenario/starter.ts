// The commented starter file `paygate scenario new` writes: a payment, paid, checked every way a step can check.

export function starterScenario(name: string, schemaPath: string): string {
  return `# yaml-language-server: $schema=${schemaPath}
# A paygate scenario: steps call the gateway's endpoints and the sandbox's controls by their ids, and say what must
# come back. The format, every step id and every expectation: docs/scenarios.md. Run it: paygate scenario run <file>
name: ${JSON.stringify(name)}
# fixtures: default        # or a fixture file, relative to this one
# clock: frozen            # frozen (time moves only when a step moves it) or real
# shop: shop_a             # whose API key steps send unless they say \`as: <shop id>\`
variables:
  order: \${{ unique.order }}   # a value no other run shares
steps:
  - id: create                  # later steps read its answer: \${{ steps.create.<field> }}
    call: payment.create        # POST /v1/payment
    with:                       # the request, by the spec's field names
      merchant_operation_id: \${{ vars.order }}
      client_id: alice
      method: WT_RUB_C2C
      amount: "1500.00"
      currency: RUB
    expect:
      status: 200
      body:
        status: pending
        number: { present: true }          # also: { absent: true }, { matches: "^2200" }, { equals: … }, { length: 1 }
      webhooks: [operation.pending]        # the webhook events this step caused, in order

  - call: operations.pay                 # the payer transfers (a sandbox control)
    with:
      id: \${{ steps.create.operation_id }}
      amount: "1400.00"                  # less than expected: the payment completes for 1,400.00
    expect:
      operation_status: completed
      balance_delta:                     # how the step moved the shop's balances, exactly
        RUB: { balance: "1365.00" }

  # - wait_for: { status: completed }    # on a frozen clock the runner advances it to the next timer
  # - call: clock.advance
  #   with: { by: 30m }
`;
}
