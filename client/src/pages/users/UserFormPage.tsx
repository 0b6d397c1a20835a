import { useAtomValue } from 'jotai';
import { Message } from 'primereact/message';
import { Skeleton } from 'primereact/skeleton';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { createUserBodySchema, updateUserBodySchema } from '../../../../domain/schemas/index.ts';
import { ApiError, apiPost, apiPut, messageOf } from '../../api/http.ts';
import type { PageProps } from '../../app/pageProps.ts';
import { notify } from '../../state/common.ts';
import { authUserAtom } from '../../state/session.ts';
import { FormActions, TextField } from '../../shared/forms/fields.tsx';
import { fieldErrorsOf } from '../../shared/forms/useFormState.ts';
import { fieldOfMessage, useMessageText } from '../../components/messages.ts';
import { editedUserAtom } from './editUser.ts';
import { findUser } from './findUser.ts';
import { NO_ORGANIZATION, UserAccessFields } from './UserAccessFields.tsx';
import {
  fetchCreatableRoles,
  fetchOrganizations,
  type Changed,
  type OrganizationChoice,
  type RoleChoice,
} from './users.api.ts';
import '../../shared/styles/users.css';

/** The server's paths of the create request, as the form's field names. */
const pathToField: Record<string, string> = {
  'userDetails.name': 'name',
  'userDetails.phone': 'phone',
};

/** /user/create and /user/edit/{id}: a user with a creatable role and an organization; or a user's contact and password. */
export default function UserFormPage({ titleKey, params }: PageProps) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const messageText = useMessageText();
  const editing = titleKey === 'routes.userEdit';
  const chosen = useAtomValue(editedUserAtom);
  // Editing oneself: a new password or e-mail needs the current password (the server checks it).
  const me = useAtomValue(authUserAtom);
  const self = editing && me !== null && me.id === params.id;
  const [values, setValues] = useState({
    name: '',
    email: '',
    username: '',
    phone: '',
    password: '',
    oldPassword: '',
    roleId: null as number | null,
    organizationId: NO_ORGANIZATION,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [roles, setRoles] = useState<RoleChoice[]>([]);
  const [organizations, setOrganizations] = useState<OrganizationChoice[]>([]);
  const [loading, setLoading] = useState(editing);
  const [missing, setMissing] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (editing) {
      const id = params.id;
      if (!id) {
        setMissing(true);
        setLoading(false);
        return;
      }
      const start = chosen?.id === id ? Promise.resolve(chosen) : findUser(id);
      start
        .then((user) => {
          if (!user) setMissing(true);
          else
            setValues((current) => ({
              ...current,
              name: user.name,
              email: user.email,
              username: user.username,
              phone: user.phone ?? '',
            }));
        })
        .catch((error: unknown) => setFormError(messageOf(error)))
        .finally(() => setLoading(false));
      return;
    }
    fetchCreatableRoles()
      .then(setRoles)
      .catch((error: unknown) => setFormError(messageOf(error)));
    fetchOrganizations()
      .then(setOrganizations)
      .catch(() => setOrganizations([]));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- loaded once per user id
  }, [editing, params.id]);

  const set = (field: keyof typeof values, value: string | number | null) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => {
      const { [field]: _dropped, ...rest } = current;
      return rest;
    });
  };

  function show(issues: readonly { path: readonly PropertyKey[]; message: string }[]) {
    const found = fieldErrorsOf(issues);
    setErrors(
      Object.fromEntries(
        Object.entries(found).map(([key, message]) => [pathToField[key] ?? key, message]),
      ),
    );
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const parsed = editing
      ? updateUserBodySchema.safeParse({
          email: values.email,
          name: values.name,
          phone: values.phone,
          newPassword: values.password,
          ...(self && values.oldPassword ? { oldPassword: values.oldPassword } : {}),
        })
      : createUserBodySchema.safeParse({
          email: values.email,
          username: values.username,
          userDetails: { name: values.name, phone: values.phone },
          password: values.password,
          roleId: values.roleId ?? undefined,
          ...(values.organizationId === NO_ORGANIZATION
            ? {}
            : { organizationId: values.organizationId }),
        });
    if (!parsed.success) {
      show(parsed.error.issues);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const answer = editing
        ? await apiPut<Changed>(`/users/${params.id}`, parsed.data)
        : await apiPost<Changed>('/users', parsed.data);
      notify(
        'success',
        messageText(
          answer?.message ?? (editing ? 'User successfully updated' : 'User successfully created'),
        ),
      );
      navigate('/users/all');
    } catch (error) {
      const message = messageOf(error);
      if (error instanceof ApiError) {
        const found: Record<string, string> = {};
        for (const item of error.errors)
          if (item.path) found[pathToField[item.path] ?? item.path] ??= item.message;
        const named = fieldOfMessage(message);
        if (named) found[named] ??= message;
        setErrors(found);
      }
      setFormError(message);
    } finally {
      setBusy(false);
    }
  }

  const shown = (field: string) => (errors[field] ? messageText(errors[field]) : undefined);

  return (
    <section className="page users-page">
      <header className="page-header">
        <h1>{t(titleKey)}</h1>
      </header>
      <form className="card admin-form" onSubmit={submit} noValidate>
        {formError && (
          <Message severity="error" text={messageText(formError)} className="form-message" />
        )}
        {missing && (
          <Message severity="warn" text={t('usersAdmin.userNotFound')} className="form-message" />
        )}
        {loading ? (
          <div className="form-grid">
            {[1, 2, 3, 4].map((key) => (
              <Skeleton key={key} height="3.5rem" />
            ))}
          </div>
        ) : (
          <>
            <h2 className="admin-form-section">{t('usersAdmin.personal')}</h2>
            <div className="form-grid">
              <TextField
                id="user-name"
                label={t('signup.name')}
                value={values.name}
                onChange={(v) => set('name', v)}
                error={shown('name')}
                required
              />
              <TextField
                id="user-email"
                type="email"
                label={t('signup.email')}
                value={values.email}
                onChange={(v) => set('email', v)}
                error={shown('email')}
                required
              />
              <TextField
                id="user-username"
                label={t('signup.username')}
                value={values.username}
                onChange={(v) => set('username', v)}
                error={shown('username')}
                disabled={editing}
                required={!editing}
              />
              <TextField
                id="user-phone"
                type="tel"
                label={t('signup.phone')}
                value={values.phone}
                onChange={(v) => set('phone', v)}
                error={shown('phone')}
                hint={t('account.phoneHint')}
                required
              />
              <TextField
                id="user-password"
                type="password"
                label={editing ? t('account.user.newPassword') : t('signup.password')}
                value={values.password}
                onChange={(v) => set('password', v)}
                error={shown(editing ? 'newPassword' : 'password')}
                autoComplete="new-password"
                hint={editing ? t('usersAdmin.keepPassword') : t('auth.passwordHint')}
                required={!editing}
              />
              {self && (
                <TextField
                  id="user-old-password"
                  type="password"
                  label={t('usersAdmin.currentPassword')}
                  value={values.oldPassword}
                  onChange={(v) => set('oldPassword', v)}
                  error={shown('oldPassword')}
                  autoComplete="current-password"
                  hint={t('usersAdmin.currentPasswordHint')}
                />
              )}
            </div>
            {!editing && (
              <UserAccessFields
                roleId={values.roleId}
                organizationId={values.organizationId}
                roles={roles}
                organizations={organizations}
                errors={errors}
                shown={shown}
                set={set}
              />
            )}
          </>
        )}
        <FormActions
          onCancel={() => navigate('/users/all')}
          busy={busy || loading || missing}
          cancelLabel={t('common.cancel')}
          saveLabel={editing ? t('common.saveChanges') : t('usersAdmin.createUser')}
        />
      </form>
    </section>
  );
}
