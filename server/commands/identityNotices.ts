/** The e-mails identity's use cases send: sign-up and reset codes, and the notices of changes. */
import type { MailMessage } from '../integrations/mail/mailer.ts';

const minuteOf = (now: string) => `${now.slice(0, 16).replace('T', ' ')} UTC`;

export const signupCodeMail = (
  user: { email: string; name: string },
  code: string,
): MailMessage => ({
  to: user.email,
  subject: 'Your Freight Marketplace sign-up code',
  text: `Hello ${user.name},\n\nYour sign-up code is ${code}. It is valid for 30 minutes.\n\nEnter it on the confirmation page to finish your registration.`,
});

export const resetCodeMail = (
  user: { email: string; name: string },
  code: string,
): MailMessage => ({
  to: user.email,
  subject: 'Reset your Freight Marketplace password',
  text: `Hello ${user.name},\n\nUse this link within 30 minutes to choose a new password (it works once):\n/reset-password?code=${code}\n\nReset code: ${code}\n\nIf you did not ask for it, ignore this message.`,
});

/**
 * Told to the old address after a password or e-mail change, so that the owner of a taken account
 * learns of it.
 */
export function credentialsChangedMail(change: {
  user: { email: string; name: string; username: string };
  /** Whether the user changed its own account (else an administrator did). */
  bySelf: boolean;
  newEmail: string | null;
  passwordChanged: boolean;
  now: string;
}): MailMessage {
  const { user, bySelf, newEmail, passwordChanged } = change;
  const what =
    newEmail && passwordChanged
      ? 'e-mail address and password'
      : newEmail
        ? 'e-mail address'
        : 'password';
  const who = bySelf ? 'You' : 'An administrator';
  const lines = [
    `Hello ${user.name},`,
    '',
    `${who} changed the ${what} of your Freight Marketplace account (${user.username}) on ${minuteOf(change.now)}.`,
    ...(newEmail
      ? [
          '',
          `From now on we write to ${newEmail.trim()}, and you sign in with that address; this is the last message to this one.`,
        ]
      : []),
    '',
    bySelf
      ? 'You stay signed in where you made the change; everywhere else you have been signed out.'
      : 'You have been signed out everywhere; sign in again with the new details.',
    '',
    `If this was not you, someone may have access to your account: ${passwordChanged && !newEmail ? "choose 'Forgot password?' on the sign-in page to set a new password, and " : ''}contact your organization's administrator or our support right away.`,
    '',
    'The Freight Marketplace team',
  ];
  return {
    to: user.email,
    subject: `Your Freight Marketplace ${what} ${newEmail && passwordChanged ? 'were' : 'was'} changed`,
    text: lines.join('\n'),
  };
}

/**
 * Told to the owner of an address when someone registers with it again: self-registration answers
 * that attempt as it answers a new address (so the answer does not tell who has an account), and
 * the owner learns here what happened and what to do.
 */
export function alreadyRegisteredNotice(
  user: { email: string; name: string; username: string; emailConfirmed: boolean },
  now: string,
): MailMessage {
  const lines = [
    `Hello ${user.name},`,
    '',
    `Someone, perhaps you, asked on ${minuteOf(now)} to register a new Freight Marketplace organization with this e-mail address.`,
    'Email already registered: nothing was created, and your account is unchanged.',
    '',
    user.emailConfirmed
      ? `To use your account, sign in with this address or your username (${user.username}); if you forgot your password, choose 'Forgot password?' on the sign-in page.`
      : "Your registration has already started: please enter the security code we sent you on the confirmation page, or choose 'Send the code again' there for a new one. If you forgot your password, choose 'Forgot password?' on the sign-in page.",
    '',
    'If this was not you, you can ignore this message.',
    '',
    'The Freight Marketplace team',
  ];
  return {
    to: user.email,
    subject: 'Your Freight Marketplace registration',
    text: lines.join('\n'),
  };
}

/** Told to the user after a sign-in from a browser or address it had not signed in from. */
export function newDeviceMail(sign: {
  user: { email: string; name: string; username: string };
  userAgent: string;
  address: string;
  now: string;
}): MailMessage {
  return {
    to: sign.user.email,
    subject: 'New sign-in to your Freight Marketplace account',
    text: [
      `Hello ${sign.user.name},`,
      '',
      `Your Freight Marketplace account (${sign.user.username}) was signed in to on ${minuteOf(sign.now)} from a device we had not seen:`,
      `Browser: ${sign.userAgent.slice(0, 200) || 'unknown'}`,
      `Address: ${sign.address}`,
      '',
      'If this was you, there is nothing to do.',
      '',
      "If this was not you, choose 'Forgot password?' on the sign-in page to set a new password, turn on two-factor sign-in under Account settings, Security, and contact your organization's administrator or our support right away.",
    ].join('\n'),
  };
}
