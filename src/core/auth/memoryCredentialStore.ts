import { DocumentCredentialStore, emptyCredentialDocument, type CredentialDocument } from './documentCredentialStore';

/** Keeps the document in memory: for tests and for a host that must not persist credentials. */
export class MemoryCredentialStore extends DocumentCredentialStore {
  private doc = emptyCredentialDocument();

  protected async load(): Promise<CredentialDocument> {
    return structuredClone(this.doc);
  }

  protected async save(doc: CredentialDocument): Promise<void> {
    this.doc = structuredClone(doc);
  }
}
