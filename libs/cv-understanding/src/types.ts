/** Who the CV is about and how to reach them; each field null when the CV does not say. */
export interface ContactInfo {
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  phone: string | null;
  linkedin: string | null;
  location: { city: string | null; country: string | null } | null;
}

/** What the CV says about the candidate's work; null or empty when it does not say. */
export interface ProfileInfo {
  domain: string | null;
  specialization: string | null;
  seniorityLevel: string | null;
  experienceYears: number | null;
  technicalStack: string[];
  industries: string[];
  recentExpertise: string[];
  hasManagement: boolean | null;
}
