import type { SimulatedLedger } from './payouts.js';
import type { C2bPayment } from './c2b.js';
import type { SimulatedPrompt } from './simulator.js';

const escapeHtml = (value: string | number) =>
  String(value).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** Reloads the list every 3 s unless someone is typing a PIN. Served as a file: the page has no inline script. */
export const PHONE_SCRIPT = `(() => {
  const busy = () => Array.from(document.querySelectorAll('input[name="pin"]')).some((el) => el === document.activeElement || el.value !== '');
  setInterval(() => { if (!busy()) window.location.reload(); }, 3000);
})();
`;

const STYLE = `
body{font-family:system-ui,sans-serif;background:#e8ecef;margin:0;display:flex;justify-content:center}
.phone{width:360px;min-height:640px;background:#111;color:#eee;border-radius:28px;margin:24px;padding:18px;box-shadow:0 8px 24px #0004}
h1{font-size:18px;margin:4px 0 12px}
.note{font-size:12px;color:#aaa}
.prompt{background:#fff;color:#111;border-radius:12px;padding:12px;margin:12px 0}
.prompt.done{opacity:.6}
.prompt p{margin:4px 0}
input{font-size:18px;width:110px;padding:6px;letter-spacing:4px}
button{font-size:15px;padding:7px 14px;margin:8px 6px 0 0;border-radius:8px;border:0;cursor:pointer}
form{display:inline-block}
.pay{background:#2e7d32;color:#fff}.cancel{background:#c62828;color:#fff}
.error{color:#ffab91}
.books{box-sizing:border-box;width:min(1100px,calc(100% - 24px));background:#fff;color:#111;margin:12px;padding:16px;border-radius:12px;box-shadow:0 8px 24px #0002}
.books .note{color:#555}
.totals{display:flex;flex-wrap:wrap;gap:12px;margin:12px 0}
.totals div{background:#f1f4f6;border-radius:8px;padding:8px 14px}
.totals strong{display:block;font-size:20px}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:14px;margin:6px 0 18px}
th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #dde3e8;white-space:nowrap}
td.amount,th.amount{text-align:right}
`;

const promptLink = (base: string, prompt: SimulatedPrompt) => `${base}/prompt/${escapeHtml(prompt.token)}`;

/** A pending prompt with its PIN form; both forms post to the prompt's own (secret) page. */
function pendingCard(prompt: SimulatedPrompt, base: string): string {
  const link = promptLink(base, prompt);
  return `
  <div class="prompt">
    <p><strong>M-PESA</strong> to ${escapeHtml(prompt.phone)}</p>
    <p>Do you want to pay KSh ${escapeHtml(prompt.amount)} to ${escapeHtml(prompt.shortcode)} for account ${escapeHtml(prompt.accountReference)}?</p>
    <form method="post" action="${link}/pay">
      <label>Enter M-PESA PIN <input name="pin" type="password" inputmode="numeric" pattern="[0-9]{4,6}" minlength="4" maxlength="6" required autocomplete="off"></label>
      <button class="pay" type="submit">Pay</button>
    </form>
    <form method="post" action="${link}/cancel"><button class="cancel" type="submit">Cancel</button></form>
  </div>`;
}

const finishedCard = (prompt: SimulatedPrompt) => `
  <div class="prompt done"><p>${escapeHtml(prompt.phone)} · KSh ${escapeHtml(prompt.amount)} · ${escapeHtml(prompt.resultCode ?? '')} ${escapeHtml(prompt.resultDesc ?? '')}${prompt.receipt ? ` · ${escapeHtml(prompt.receipt)}` : ''}</p></div>`;

/** The phone frame; `reload` adds the script that refreshes the page while something is pending. */
function phoneFrame(base: string, body: string, reload: boolean): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>M-PESA simulator phone</title><style>${STYLE}</style></head>
<body><main class="phone">
<h1>M-PESA simulator</h1>
${body}
<p class="note"><a href="${base}/menu" style="color:#9ccc65">Pay from the M-PESA menu (Pay Bill)</a></p>
</main>${reload ? `<script src="${base}/phone.js"></script>` : ''}</body></html>`;
}

const errorLine = (error?: string) => (error ? `<p class="error">${escapeHtml(error)}</p>` : '');

const MENU_MODES: Array<[string, string]> = [
  ['normal', 'Pay as typed'],
  ['wrong-account', 'Type a wrong account number'],
  ['wrong-amount', 'Type the amount 1 shilling too high'],
  ['late', 'Pay later (after a delay)'],
  ['no-confirmation', 'Pay, but M-Pesa never confirms it'],
];

const menuResult = (payment: C2bPayment) => `
  <div class="prompt done"><p>${escapeHtml(payment.phone)} · KSh ${escapeHtml(payment.amount)} · account ${escapeHtml(payment.account)} · ${escapeHtml(payment.status)} ${escapeHtml(payment.resultCode)}${payment.status === 'completed' ? ` · ${escapeHtml(payment.transId)}${payment.confirmationSent ? '' : ' (not confirmed)'}` : ''}</p></div>`;

/**
 * Pay from the M-Pesa menu (Lipa na M-PESA → Pay Bill): business number, account number, amount, PIN. Open to
 * anyone, as paying a Paybill is: it moves simulated money only, and the merchant decides (validation).
 */
export function renderMenuPage(shortcode: string, payments: C2bPayment[], basePath: string, values: { phone?: string; account?: string; amount?: string; error?: string } = {}): string {
  const base = escapeHtml(basePath);
  const field = (name: string, label: string, value: string | undefined, extra: string) =>
    `<p><label>${label}<br><input name="${name}" value="${escapeHtml(value ?? '')}" ${extra} required style="width:220px;letter-spacing:1px"></label></p>`;
  return phoneFrame(
    base,
    `<h1>Lipa na M-PESA · Pay Bill</h1>
<p class="note">Pay a business from the M-PESA menu. Tukio's business number is ${escapeHtml(shortcode)}; the account number is the order number the payment dialog shows.</p>
${errorLine(values.error)}
<form method="post" action="${base}/menu/pay" class="prompt" style="display:block">
${field('phone', 'Your phone number', values.phone, 'inputmode="numeric" pattern="254[17][0-9]{8}" autocomplete="tel"')}
<p>Business number: <strong>${escapeHtml(shortcode)}</strong></p>
${field('account', 'Account number', values.account, 'autocapitalize="characters" maxlength="20"')}
${field('amount', 'Amount (KSh)', values.amount, 'inputmode="numeric" pattern="[0-9]+"')}
<p><label>What the customer does<br><select name="mode">${MENU_MODES.map(([value, label]) => `<option value="${value}">${label}</option>`).join('')}</select></label></p>
<p><label>Enter M-PESA PIN <input name="pin" type="password" inputmode="numeric" pattern="[0-9]{4,6}" minlength="4" maxlength="6" required autocomplete="off"></label></p>
<button class="pay" type="submit">Pay</button>
</form>
${payments.length ? `<h1>Recent</h1>${payments.slice(0, 10).map(menuResult).join('')}` : ''}`,
    false,
  );
}

/** Every prompt (the developer's view, behind the simulator key). */
export function renderPhonePage(prompts: SimulatedPrompt[], basePath: string): string {
  const pending = prompts.filter((prompt) => prompt.status === 'pending');
  const done = prompts.filter((prompt) => prompt.status !== 'pending').slice(0, 10);
  const base = escapeHtml(basePath);
  return phoneFrame(
    base,
    `<p class="note">Every prompt sent by the Tukio payment service (this page needs the simulator key). Enter any 4–6 digit PIN and press Pay, or Cancel. Test number 254700000005 waits for you; other numbers answer on their own (see docs/payments.md).</p>
${pending.length ? pending.map((prompt) => pendingCard(prompt, base)).join('') : '<p class="note">No pending prompts.</p>'}
${done.length ? `<h1>Recent</h1>${done.map(finishedCard).join('')}` : ''}`,
    true,
  );
}

/** One prompt, as its buyer sees it through the link in the payment dialog. */
export function renderPromptPage(prompt: SimulatedPrompt, basePath: string, error?: string): string {
  const base = escapeHtml(basePath);
  const pending = prompt.status === 'pending';
  return phoneFrame(
    base,
    `<p class="note">${pending ? 'Enter any 4–6 digit PIN and press Pay, or Cancel.' : 'This prompt was answered; you can close this page.'}</p>
${errorLine(error)}
${pending ? pendingCard(prompt, base) : finishedCard(prompt)}`,
    pending,
  );
}

/** A page that only says why there is nothing to show (no key, unknown link). */
export function renderMessagePage(message: string, basePath: string): string {
  return phoneFrame(escapeHtml(basePath), `<p class="note">${escapeHtml(message)}</p>`, false);
}

const shillings = new Intl.NumberFormat('en-KE');
const amountCell = (amount: number) => `<td class="amount">KSh ${escapeHtml(shillings.format(amount))}</td>`;
const counted = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
const cells = (values: Array<string | number | null>) => values.map((value) => `<td>${escapeHtml(value ?? '')}</td>`).join('');

function table(caption: string, head: string[], rows: string[], empty: string): string {
  if (rows.length === 0) return `<h2>${escapeHtml(caption)}</h2><p class="note">${escapeHtml(empty)}</p>`;
  const header = head.map((name) => `<th scope="col"${name === 'Amount' ? ' class="amount"' : ''}>${escapeHtml(name)}</th>`).join('');
  return `<h2>${escapeHtml(caption)}</h2><div class="scroll"><table><thead><tr>${header}</tr></thead><tbody>${rows.map((row) => `<tr>${row}</tr>`).join('')}</tbody></table></div>`;
}

/** M-Pesa's side of the books as a person reads them: what came in, what went out, newest first. */
export function renderLedgerPage(books: SimulatedLedger, basePath: string): string {
  const paidIn = books.payments.reduce((sum, payment) => sum + payment.amount, 0);
  const paidOut = [...books.refunds, ...books.b2b].reduce((sum, payout) => sum + payout.amount, 0);
  const newestFirst = <T extends { completedAt: string }>(rows: T[]) => [...rows].sort((a, b) => b.completedAt.localeCompare(a.completedAt));
  const payments = newestFirst(books.payments).map(
    (payment) => `${cells([payment.completedAt.replace('T', ' ').slice(0, 19), payment.receipt, payment.phone])}${amountCell(payment.amount)}${cells([payment.checkoutRequestId])}`,
  );
  const refunds = newestFirst(books.refunds).map(
    (refund) => `${cells([refund.completedAt.replace('T', ' ').slice(0, 19), refund.transactionId, refund.kind, refund.phone])}${amountCell(refund.amount)}${cells([refund.originalReceipt])}`,
  );
  const b2b = newestFirst(books.b2b).map(
    (payment) => `${cells([payment.completedAt.replace('T', ' ').slice(0, 19), payment.transactionId, payment.commandId, payment.partyB, payment.accountReference])}${amountCell(payment.amount)}`,
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>M-PESA simulator ledger</title><style>${STYLE}</style></head>
<body><main class="books">
<h1>M-PESA simulator: ledger</h1>
<p class="note">What M-Pesa took and paid out in this simulator (times in UTC). <code>npm run audit:payments</code> compares it with Tukio's records; the same address answers JSON to a script. <a href="${escapeHtml(basePath)}">Back to the prompts</a> (needs the key).</p>
<div class="totals"><div>Paid in<strong>KSh ${escapeHtml(shillings.format(paidIn))}</strong>${counted(books.payments.length, 'payment', 'payments')}</div><div>Paid out<strong>KSh ${escapeHtml(shillings.format(paidOut))}</strong>${counted(books.refunds.length + books.b2b.length, 'payout', 'payouts')} (B2C, B2B, reversals)</div><div>Balance<strong>KSh ${escapeHtml(shillings.format(paidIn - paidOut))}</strong>held at the shortcode</div></div>
${table('Payments (STK push)', ['Completed', 'Receipt', 'Phone', 'Amount', 'CheckoutRequestID'], payments, 'No completed payments yet.')}
${table('Refunds and reversals', ['Completed', 'Transaction', 'Kind', 'Phone', 'Amount', 'Original receipt'], refunds, 'Nothing paid out yet.')}
${table('Payments to businesses (B2B)', ['Completed', 'Transaction', 'Command', 'Paybill / Till', 'Account', 'Amount'], b2b, 'No B2B payments yet.')}
</main></body></html>`;
}
