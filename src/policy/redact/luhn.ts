// The Luhn checksum and issuer prefixes that tell a payment card number from any other run of digits (threat E3).

/** True when `digits` (only 0-9) passes the Luhn check. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let digit = digits.charCodeAt(i) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

/**
 * Issuer prefixes and lengths of the card networks (Visa, Mastercard, Amex, Discover, JCB, Diners, UnionPay):
 * a Luhn check alone passes one random number in ten, so an order id or a timestamp pair would be taken for a card.
 */
const CARD_SHAPE =
  /^(?:4\d{12}(?:\d{3}){0,2}|(?:5[1-5]\d\d|2(?:2[2-9]\d|[3-6]\d\d|7[01]\d|720))\d{12}|3[47]\d{13}|(?:6011|65\d\d|64[4-9]\d)\d{12}(?:\d{3})?|35(?:2[89]|[3-8]\d)\d{12}(?:\d{3})?|3(?:0[0-5]|[689]\d)\d{11}(?:\d{2,5})?|62\d{14}(?:\d{3})?)$/;

/** A payment card number: separators (space, hyphen) removed, a network's shape, the Luhn check, not one digit repeated. */
export function isCardNumber(candidate: string): boolean {
  const digits = candidate.replace(/[ -]/g, '');
  return CARD_SHAPE.test(digits) && !/^(\d)\1+$/.test(digits) && luhnValid(digits);
}
