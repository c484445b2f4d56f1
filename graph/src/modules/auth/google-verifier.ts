import { OAuth2Client } from 'google-auth-library';
import type { Config } from '../../config/config.js';
import { AppError } from '../../platform/errors.js';

export interface GoogleIdentity {
  sub: string;
  email: string | null;
  emailVerified: boolean;
  hd: string | null;
}

/**
 * Verifies a Google ID token with google-auth-library: signature against Google's certificates,
 * `aud` = our client id (always passed), `iss`, `exp`; then the Workspace domain `hd` when configured.
 * GOOGLE_CERTS_URL lets tests serve their own certificates through the real library.
 */
export class GoogleVerifier {
  private readonly client: OAuth2Client | null;

  constructor(private readonly config: Config) {
    this.client = config.GOOGLE_CLIENT_ID
      ? new OAuth2Client({
          clientId: config.GOOGLE_CLIENT_ID,
          ...(config.GOOGLE_CERTS_URL
            ? { endpoints: { oauth2FederatedSignonPemCertsUrl: config.GOOGLE_CERTS_URL } }
            : {}),
        })
      : null;
  }

  get enabled(): boolean {
    return this.client !== null;
  }

  async verify(idToken: string): Promise<GoogleIdentity> {
    if (!this.client) throw new AppError('BAD_USER_INPUT', 'Googleログインは設定されていません。');
    let payload;
    try {
      const ticket = await this.client.verifyIdToken({ idToken, audience: this.config.GOOGLE_CLIENT_ID! });
      payload = ticket.getPayload();
    } catch {
      throw new AppError('UNAUTHENTICATED', 'Googleアカウントを確認できませんでした。もう一度お試しください。');
    }
    if (!payload?.sub)
      throw new AppError('UNAUTHENTICATED', 'Googleアカウントを確認できませんでした。もう一度お試しください。');
    const wanted = this.config.GOOGLE_HOSTED_DOMAIN;
    if (wanted && payload.hd !== wanted) {
      throw new AppError('FORBIDDEN', `会社のGoogleアカウント（${wanted}）でログインしてください。`);
    }
    return {
      sub: payload.sub,
      email: payload.email ?? null,
      emailVerified: payload.email_verified === true,
      hd: payload.hd ?? null,
    };
  }
}
