import { useTranslation } from 'react-i18next';
import { driverTeams, trailerTypes, truckTypes } from '../../../../domain/catalog.ts';
import {
  carrierDocumentFields,
  type CarrierDocumentField,
} from '../../../../domain/schemas/index.ts';
import { FileDropZone } from '../../components/FileDropZone.tsx';
import { TextField } from '../../shared/forms/fields.tsx';
import { VehicleList } from '../../shared/forms/VehicleList.tsx';
import type { Fleet, OrganizationValues, SetValue } from './addOrganizationForm.ts';

/** A carrier's company details, its four documents and its fleet (trucks, driver teams, trailers). */
export function CarrierOrganizationFields({
  values,
  set,
  shown,
  files,
  chooseFile,
  fleet,
  setFleet,
  vehicleErrors,
}: {
  values: OrganizationValues;
  set: SetValue;
  shown(field: string): string | undefined;
  files: Partial<Record<CarrierDocumentField, File | null>>;
  chooseFile(field: CarrierDocumentField, file: File | null): void;
  fleet: Fleet;
  setFleet(fleet: Fleet): void;
  vehicleErrors: Record<string, string>;
}) {
  const { t } = useTranslation();
  const documentLabels: Record<CarrierDocumentField, string> = {
    mcAuthority: t('account.carrier.mcAuthority'),
    certificateOfInsurance: t('account.carrier.certificateOfInsurance'),
    w9Form: t('account.carrier.w9Form'),
    noticeOfAssignment: t('account.carrier.noticeOfAssignment'),
  };
  return (
    <>
      <h2 className="admin-form-section">{t('account.carrier.companyDetails')}</h2>
      <div className="form-grid">
        <TextField
          id="org-mc"
          type="number"
          label={t('account.carrier.mcNumber')}
          value={values.mcNumber}
          onChange={(v) => set('mcNumber', v)}
          error={shown('mcNumber')}
          required
        />
        <TextField
          id="org-dot"
          type="number"
          label={t('account.carrier.dotNumber')}
          value={values.dotNumber}
          onChange={(v) => set('dotNumber', v)}
          error={shown('dotNumber')}
          required
        />
        <TextField
          id="org-eld"
          label={t('account.carrier.eldProvider')}
          value={values.eldProvider}
          onChange={(v) => set('eldProvider', v)}
        />
      </div>
      <h2 className="admin-form-section">{t('account.carrier.fileUploads')}</h2>
      <div className="file-grid">
        {carrierDocumentFields.map((field) => (
          <FileDropZone
            key={field}
            label={`${documentLabels[field]}${field === 'noticeOfAssignment' ? '' : ' *'}`}
            accept="application/pdf,.pdf"
            file={files[field] ?? null}
            onFile={(file) => chooseFile(field, file)}
            error={shown(field)}
            hint={t('files.pdfHint')}
          />
        ))}
      </div>
      <h2 className="admin-form-section">{t('account.carrier.trucks')}</h2>
      <VehicleList
        idPrefix="trucks"
        items={fleet.trucks}
        options={truckTypes.map((entry) => ({
          value: entry.id,
          label: t(`catalog.trucks.${entry.id}` as never) as string,
        }))}
        onChange={(trucks) => setFleet({ ...fleet, trucks })}
        errors={vehicleErrors}
        addLabel={t('account.carrier.addTruck')}
        typeLabel={t('account.carrier.truckType')}
      />
      <h2 className="admin-form-section">{t('account.carrier.driverTeams')}</h2>
      <VehicleList
        idPrefix="driverTeams"
        items={fleet.driverTeams}
        options={driverTeams.map((entry) => ({
          value: entry.id,
          label: t(`catalog.driverTeams.${entry.id}` as never) as string,
        }))}
        onChange={(items) => setFleet({ ...fleet, driverTeams: items })}
        errors={vehicleErrors}
        addLabel={t('account.carrier.addDriverTeam')}
        typeLabel={t('account.carrier.driverTeam')}
      />
      <h2 className="admin-form-section">{t('account.carrier.trailers')}</h2>
      <VehicleList
        idPrefix="trailers"
        items={fleet.trailers}
        options={trailerTypes.map((entry) => ({ value: entry.id, label: entry.name }))}
        onChange={(trailers) => setFleet({ ...fleet, trailers })}
        errors={vehicleErrors}
        addLabel={t('account.carrier.addTrailer')}
        typeLabel={t('account.carrier.trailerType')}
      />
    </>
  );
}
