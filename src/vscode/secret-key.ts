/** Where the editor keeps a provider's API key in SecretStorage. */
export const secretKey = (provider: string) => `contextControl.apiKey.${provider}`;

/** Where a surface gets a provider's key: the folder's engine (its host's keys). */
export interface Keys {
  secret(provider: string): Promise<string | undefined>;
}
