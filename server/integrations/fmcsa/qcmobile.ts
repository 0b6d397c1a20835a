/**
 * FMCSA's QCMobile API (https://mobile.fmcsa.dot.gov/QCDevsite/docs/qcApi), read with a WebKey:
 * `GET {base}/carriers/{dot}?webKey=…` answers `{content: {carrier: {dotNumber, legalName,
 * allowedToOperate: 'Y'|'N', statusCode: 'A'|'I', commonAuthorityStatus, contractAuthorityStatus
 * ('A' active, 'I' inactive, 'N' none), bipdInsuranceOnFile (thousands of dollars, '0' none), …}}}`
 * (`content` null for an unknown DOT number), and `GET {base}/carriers/{dot}/docket-numbers` answers
 * `{content: [{prefix: 'MC', docketNumber, dotNumber}]}`.
 */
import type { CarrierAuthority } from '../../../domain/organizations/organization.ts';

type QcCarrier = {
  allowedToOperate?: string | null;
  statusCode?: string | null;
  commonAuthorityStatus?: string | null;
  contractAuthorityStatus?: string | null;
  bipdInsuranceOnFile?: string | number | null;
};

const TIMEOUT_MS = 10_000;

async function getJson(url: URL): Promise<unknown> {
  const response = await fetch(url, {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`QCMobile answered ${response.status}`);
  return response.json();
}

const endpoint = (baseUrl: string, path: string, webKey: string) => {
  const url = new URL(`${baseUrl.replace(/\/$/, '')}/${path}`);
  url.searchParams.set('webKey', webKey);
  return url;
};

/** Allowed to operate: active; else a USDOT number inactive: inactive; else an authority no longer active: revoked. */
export function statusOf(carrier: QcCarrier): CarrierAuthority['status'] {
  if (carrier.allowedToOperate === 'Y') return 'active';
  if (carrier.statusCode === 'I') return 'inactive';
  const authorities = [carrier.commonAuthorityStatus, carrier.contractAuthorityStatus];
  if (authorities.includes('I')) return 'revoked';
  return 'inactive';
}

export async function qcmobileAuthority(
  baseUrl: string,
  webKey: string,
  dotNumber: number,
  mcNumber: number | null,
  now: string,
): Promise<CarrierAuthority> {
  const answer = (await getJson(endpoint(baseUrl, `carriers/${dotNumber}`, webKey))) as {
    content?: { carrier?: QcCarrier | null } | string | null;
  };
  // A refused WebKey is answered with a sentence in `content`: no answer, not an unknown carrier.
  if (typeof answer?.content === 'string') throw new Error(`QCMobile: ${answer.content}`);
  const carrier = answer?.content?.carrier;
  if (!carrier)
    return {
      dotNumber,
      mcNumber,
      status: 'unknown',
      insuranceOnFile: false,
      source: 'qcmobile',
      checkedAt: now,
    };
  let mc = mcNumber;
  try {
    const dockets = (await getJson(
      endpoint(baseUrl, `carriers/${dotNumber}/docket-numbers`, webKey),
    )) as { content?: { prefix?: string; docketNumber?: number | string }[] | null };
    const found = dockets?.content?.find((docket) => docket.prefix === 'MC');
    if (found && Number(found.docketNumber) > 0) mc = Number(found.docketNumber);
  } catch {
    // The docket numbers are a detail: the carrier's own MC number stands.
  }
  return {
    dotNumber,
    mcNumber: mc,
    status: statusOf(carrier),
    insuranceOnFile: Number(carrier.bipdInsuranceOnFile ?? 0) > 0,
    source: 'qcmobile',
    checkedAt: now,
  };
}
