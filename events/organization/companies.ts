export type CompanyEvent = {
  type: 'CompanyRegistered';
  payload: { companyId: number; name: string };
};

export const companyStream = (companyId: number): string => `company-${companyId}`;
