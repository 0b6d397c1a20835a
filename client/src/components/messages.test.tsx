import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiPost, messageOf } from '../api/http.ts';
import i18n from '../i18n/index.ts';
import { useMessageText } from './messages.ts';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The error a call gets when the server answers `body`. */
async function failureOf(body: unknown): Promise<ApiError> {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => json(400, body)),
  );
  const failure = await apiPost('/account/password', {}, { auth: false }).catch(
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(ApiError);
  return failure as ApiError;
}

describe('server errors are translated by their code', () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    await i18n.changeLanguage('en');
  });

  it('translates a message the server reworded, as long as its code stays', async () => {
    await i18n.changeLanguage('fr');
    const failure = await failureOf({
      statusCode: 400,
      error: 'Bad Request',
      message: 'Your current password does not match',
      code: 'old_password_wrong',
      errors: [
        {
          path: 'oldPassword',
          message: 'Your current password does not match',
          code: 'old_password_wrong',
        },
      ],
    });
    expect(failure.code).toBe('old_password_wrong');
    const { result } = renderHook(() => useMessageText());
    expect(result.current(messageOf(failure))).toBe("Votre mot de passe actuel n'est pas correct");
    expect(result.current(failure.errors[0])).toBe("Votre mot de passe actuel n'est pas correct");
    expect(result.current({ message: 'Anything at all', code: 'password_required' })).toBe(
      'Veuillez saisir le mot de passe !',
    );
  });

  it("shows the server's own text when its code is not one the client knows", async () => {
    await i18n.changeLanguage('fr');
    const failure = await failureOf({
      statusCode: 409,
      error: 'Conflict',
      message: 'A load that is Delivered cannot be canceled',
      code: 'conflict',
    });
    const { result } = renderHook(() => useMessageText());
    expect(result.current(messageOf(failure))).toBe('A load that is Delivered cannot be canceled');
  });

  it("still translates the client's own checks and the server's confirmations by their text", async () => {
    await i18n.changeLanguage('fr');
    const { result } = renderHook(() => useMessageText());
    expect(result.current('Please enter password!')).toBe('Veuillez saisir le mot de passe !');
    expect(result.current('Account successfully updated')).not.toBe('Account successfully updated');
  });
});
