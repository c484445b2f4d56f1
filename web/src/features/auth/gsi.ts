/** Google Identity Services, loaded only when the server reports a Google client ID. */
interface GsiCredentialResponse {
  credential: string;
}

interface GsiButtonOptions {
  type?: 'standard' | 'icon';
  theme?: 'outline' | 'filled_blue' | 'filled_black';
  size?: 'large' | 'medium' | 'small';
  text?: 'signin_with' | 'signup_with' | 'continue_with' | 'signin';
  shape?: 'rectangular' | 'pill' | 'circle' | 'square';
  logo_alignment?: 'left' | 'center';
  width?: number;
  locale?: string;
}

interface GsiApi {
  accounts: {
    id: {
      initialize(config: {
        client_id: string;
        callback: (response: GsiCredentialResponse) => void;
        auto_select?: boolean;
        cancel_on_tap_outside?: boolean;
        ux_mode?: 'popup' | 'redirect';
        itp_support?: boolean;
        use_fedcm_for_button?: boolean;
      }): void;
      renderButton(parent: HTMLElement, options: GsiButtonOptions): void;
    };
  };
}

declare global {
  interface Window {
    google?: GsiApi;
  }
}

const SRC = 'https://accounts.google.com/gsi/client';
let loading: Promise<GsiApi> | null = null;

export function loadGsi(): Promise<GsiApi> {
  if (window.google?.accounts?.id) return Promise.resolve(window.google);
  loading ??= new Promise<GsiApi>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = SRC;
    script.async = true;
    script.defer = true;
    script.onload = () =>
      window.google?.accounts?.id ? resolve(window.google) : reject(new Error('GSI missing after load'));
    script.onerror = () => {
      script.remove();
      reject(new Error('GSI failed to load'));
    };
    document.head.appendChild(script);
  }).catch((err: unknown) => {
    loading = null; // a later visit may try again
    throw err;
  });
  return loading;
}
