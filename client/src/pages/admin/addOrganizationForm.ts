import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import type { Changed } from '../../../../domain/contracts/users.contract.ts';
import {
  carrierDocumentFields,
  checkDocument,
  createOrganizationDataSchema,
  FILE_REQUIRED_MESSAGE,
  registrationDocumentFields,
  type CarrierDocumentField,
} from '../../../../domain/schemas/index.ts';
import { ApiError, apiPost, messageOf, multipartBody } from '../../api/http.ts';
import { useMessageText } from '../../components/messages.ts';
import { notify } from '../../state/common.ts';
import { fieldErrorsOf } from '../../shared/forms/useFormState.ts';

/** After 'Organization successfully created' the page goes to /users/all this much later (specification section 9). */
export const REDIRECT_AFTER_CREATE_MS = 2_000;

type Line = { type: number; count: number };
const contactFields: Record<string, string> = {
  name: 'name',
  'organizationContactInfo.address': 'address',
  'organizationContactInfo.person': 'person',
  'organizationContactInfo.email': 'email',
  'organizationContactInfo.phone': 'phone',
};

export type OrganizationType = 'Carrier' | 'Shipper';
export type OrganizationValues = {
  name: string;
  person: string;
  address: string;
  phone: string;
  email: string;
  eldProvider: string;
  mcNumber: string;
  dotNumber: string;
  insuredAmount: number;
};
export type Fleet = { trucks: Line[]; driverTeams: Line[]; trailers: Line[] };
export type SetValue = (field: keyof OrganizationValues, value: string | number) => void;

/**
 * The /add-organization form's state: the values, the fleet and the documents, their errors, and the
 * submission (checked here first, then POST /users/organization, then /users/all after a pause).
 */
export function useAddOrganizationForm() {
  const [, navigate] = useLocation();
  const messageText = useMessageText();
  const [type, setType] = useState<OrganizationType>('Carrier');
  const [values, setValues] = useState<OrganizationValues>({
    name: '',
    person: '',
    address: '',
    phone: '',
    email: '',
    eldProvider: '',
    mcNumber: '',
    dotNumber: '',
    insuredAmount: 0,
  });
  const [fleet, setFleet] = useState<Fleet>({
    trucks: [],
    driverTeams: [],
    trailers: [],
  });
  const [files, setFiles] = useState<Partial<Record<CarrierDocumentField, File | null>>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const set = (field: keyof typeof values, value: string | number) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => {
      const { [field]: _dropped, ...rest } = current;
      return rest;
    });
  };

  const chooseFile = (field: CarrierDocumentField, file: File | null) => {
    setFiles((current) => ({ ...current, [field]: file }));
    const problem = file ? checkDocument({ size: file.size, detectedMime: file.type }) : null;
    setErrors((current) => {
      const { [field]: _dropped, ...rest } = current;
      return problem ? { ...rest, [field]: problem } : rest;
    });
  };

  const data = () => {
    const base = {
      type,
      name: values.name,
      organizationContactInfo: {
        address: values.address,
        person: values.person,
        email: values.email,
        phone: values.phone,
      },
    };
    return type === 'Carrier'
      ? {
          ...base,
          eldProvider: values.eldProvider,
          mcNumber: values.mcNumber,
          dotNumber: values.dotNumber,
          ...fleet,
        }
      : { ...base, insuredAmount: values.insuredAmount };
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const parsed = createOrganizationDataSchema.safeParse(data());
    const found: Record<string, string> = {};
    if (!parsed.success)
      for (const [path, message] of Object.entries(fieldErrorsOf(parsed.error.issues)))
        found[contactFields[path] ?? path] = message;
    if (type === 'Carrier') {
      for (const field of carrierDocumentFields) {
        const file = files[field];
        const required = (registrationDocumentFields as readonly string[]).includes(field);
        const problem = file
          ? checkDocument({ size: file.size, detectedMime: file.type })
          : required
            ? FILE_REQUIRED_MESSAGE
            : null;
        if (problem) found[field] = problem;
      }
    }
    setErrors(found);
    if (!parsed.success || Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const answer = await apiPost<Changed>(
        '/users/organization',
        multipartBody(parsed.data, type === 'Carrier' ? files : {}),
      );
      notify('success', messageText(answer?.message ?? 'Organization successfully created'));
      setCreated(true);
      timer.current = setTimeout(() => navigate('/users/all'), REDIRECT_AFTER_CREATE_MS);
    } catch (error) {
      if (error instanceof ApiError) {
        const server: Record<string, string> = {};
        for (const item of error.errors)
          if (item.path) server[contactFields[item.path] ?? item.path] ??= item.message;
        setErrors(server);
      }
      setFormError(messageOf(error));
    } finally {
      setBusy(false);
    }
  }

  const shown = (field: string) => (errors[field] ? messageText(errors[field]) : undefined);
  const vehicleErrors = Object.fromEntries(
    Object.entries(errors).map(([key, message]) => [key, messageText(message)]),
  );

  return {
    type,
    setType,
    values,
    set,
    fleet,
    setFleet,
    files,
    chooseFile,
    errors,
    formError: formError && messageText(formError),
    busy,
    created,
    submit,
    shown,
    vehicleErrors,
  };
}
