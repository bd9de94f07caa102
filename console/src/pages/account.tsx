import { useQuery, useQueryClient } from '@tanstack/preact-query';
import { useEffect, useState } from 'preact/hooks';
import { api, enterWorkspace, setTokens, signIn, signInWithDirectory, type TokenPair } from '../api';
import { Link, navigate, useLocation } from '../router';
import { useSession } from '../session-context';
import { ActionForm, ErrorNote, Field, Loading } from '../ui';

const text = (d: FormData, k: string) => String(d.get(k) ?? '').trim();

function afterSignIn(query: URLSearchParams) {
  const next = query.get('next');
  const safe = next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/sign-in');
  navigate(safe ? next : '/devices', { replace: true });
}

/** An identity provider a sign-in page may offer for an address (`GET /api/v1/auth/providers`). */
interface OfferedProvider {
  id: number;
  type: 'oidc' | 'saml' | 'ldap';
  name: string;
  enforce: boolean;
}

/** The providers that serve the domain of what is typed, once it looks like an e-mail address. */
function useOfferedProviders(login: string): OfferedProvider[] {
  const [typed, setTyped] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setTyped(/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(login) ? login : ''), 300);
    return () => clearTimeout(t);
  }, [login]);
  const offered = useQuery({
    queryKey: ['auth-providers', typed],
    queryFn: () => api<OfferedProvider[]>('/api/v1/auth/providers', { query: { email: typed }, anonymous: true }),
    enabled: typed !== '',
    staleTime: 60_000,
  });
  return typed ? (offered.data ?? []) : [];
}

/** A directory's own sign-in: its username and password, sent with the provider's id. */
function DirectorySignIn({ provider, onDone, onCancel }: { provider: OfferedProvider; onDone: () => void; onCancel: () => void }) {
  const qc = useQueryClient();
  return (
    <>
      <ActionForm
        submit={`Sign in with ${provider.name}`}
        label={`Sign in with ${provider.name}`}
        onSubmit={async (d) => {
          qc.clear();
          await signInWithDirectory(provider.id, text(d, 'username'), String(d.get('password')));
          onDone();
        }}
      >
        <Field label={`${provider.name} username`} name="username" autoComplete="username" required autoFocus />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required />
      </ActionForm>
      <p class="links">
        <button type="button" onClick={onCancel}>
          Use another way to sign in
        </button>
      </p>
    </>
  );
}

export function SignInPage() {
  const { query } = useLocation();
  const qc = useQueryClient();
  const [login, setLogin] = useState('');
  const [directory, setDirectory] = useState<OfferedProvider | null>(null);
  const offered = useOfferedProviders(login);
  const enforced = offered.find((p) => p.enforce);
  if (directory) {
    return (
      <section class="card">
        <h1>Sign in with {directory.name}</h1>
        <DirectorySignIn provider={directory} onDone={() => afterSignIn(query)} onCancel={() => setDirectory(null)} />
      </section>
    );
  }
  return (
    <section class="card">
      <h1>Sign in</h1>
      {query.get('done') ? <p class="ok" role="status">{query.get('done')}</p> : null}
      <ActionForm
        submit="Sign in"
        label="Sign in"
        onSubmit={async (d) => {
          qc.clear();
          await signIn(text(d, 'login'), String(d.get('password')));
          afterSignIn(query);
        }}
      >
        <Field label="E-mail or username" name="login" autoComplete="username" required autoFocus value={login} onInput={(e) => setLogin((e.target as HTMLInputElement).value.trim())} />
        {enforced ? <p class="muted">Addresses of this domain sign in with {enforced.name}.</p> : null}
        <Field label="Password" name="password" type="password" autoComplete="current-password" required />
      </ActionForm>
      {offered.length > 0 ? (
        <ul class="providers" aria-label="Sign in through your organization">
          {offered.map((p) => (
            <li>
              {p.type === 'ldap' ? (
                <button type="button" onClick={() => setDirectory(p)}>
                  Continue with {p.name}
                </button>
              ) : (
                <a class="button" href={`/api/v1/auth/sso/${p.id}/start`}>
                  Continue with {p.name}
                </a>
              )}
            </li>
          ))}
        </ul>
      ) : null}
      <p class="links">
        <Link href="/forgot-password">Forgot your password?</Link> · <Link href="/sign-up">Create a company</Link>
      </p>
    </section>
  );
}

/**
 * What the console says for each code a refused sign-in through an identity provider lands with. The
 * URL carries only the code: anyone can craft a link to `/sso`, so no text from it is shown, and the
 * server keeps the reason in its log.
 */
const SSO_FAILURES: Record<string, string> = {
  SSO_FAILED: 'Your identity provider did not confirm who you are, or the sign-in took too long. Start the sign-in again.',
  SSO_NOT_PROVISIONED: 'Your identity provider knows you, but you have no account here yet. Ask an administrator of your company to invite you.',
  ACCOUNT_DISABLED: 'Your account here is deactivated. Ask an administrator of your company to reactivate it.',
  SSO_REQUIRED: 'Your company requires signing in through its identity provider. Start the sign-in from the sign-in page.',
  VALIDATION_FAILED: 'Your identity provider sent details this platform cannot use (an e-mail address, say). Ask an administrator to check its settings.',
};
const SSO_FAILURE_UNKNOWN = 'The sign-in through your identity provider did not finish. Start it again, or ask an administrator.';

/**
 * Where a sign-in through an identity provider lands (`/sso?code=…`): the one-time code is exchanged
 * for the token pair; a failure (`/sso?error=<CODE>`) is shown in the console's own words with the way
 * back to the sign-in page.
 */
export function SsoLandingPage() {
  const { query } = useLocation();
  const code = query.get('code');
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (!code) return;
    void (async () => {
      try {
        setTokens(await api<TokenPair>('/api/v1/auth/sso/exchange', { method: 'POST', body: { code }, anonymous: true }));
        await enterWorkspace();
        navigate('/devices', { replace: true });
      } catch (err) {
        setError(err);
      }
    })();
  }, [code]);
  if (code && !error) {
    return (
      <section class="card">
        <h1>Signing you in</h1>
        <Loading label="Signing you in…" />
      </section>
    );
  }
  return (
    <section class="card">
      <h1>The sign-in did not work</h1>
      {error ? (
        <ErrorNote error={error} />
      ) : (
        <SsoFailure code={query.get('error')} />
      )}
      <p class="links">
        <Link href="/sign-in">Back to sign-in</Link>
      </p>
    </section>
  );
}

/** The console's text for a failure's code, and the code when it is one the console knows. */
function SsoFailure({ code }: { code: string | null }) {
  const known = code !== null && Object.hasOwn(SSO_FAILURES, code) ? code : null;
  return (
    <p class="error" role="alert">
      {known ? `${SSO_FAILURES[known]} (${known})` : SSO_FAILURE_UNKNOWN}
    </p>
  );
}

export function SignUpPage() {
  return (
    <section class="card">
      <h1>Create a company</h1>
      <ActionForm
        submit="Sign up"
        label="Sign up"
        onSubmit={async (d) => {
          setTokens(
            await api<TokenPair>('/api/v1/auth/signup', {
              method: 'POST',
              anonymous: true,
              body: { name: text(d, 'name'), email: text(d, 'email'), password: String(d.get('password')), companyName: text(d, 'companyName') },
            }),
          );
          await enterWorkspace();
          navigate('/devices', { replace: true });
        }}
      >
        <Field label="Your name" name="name" autoComplete="name" required />
        <Field label="E-mail" name="email" type="email" autoComplete="email" required />
        <Field label="Password" name="password" type="password" autoComplete="new-password" minLength={8} required hint="At least 8 characters" />
        <Field label="Company" name="companyName" autoComplete="organization" minLength={2} required />
      </ActionForm>
      <p class="links">
        <Link href="/sign-in">Already have an account? Sign in</Link>
      </p>
    </section>
  );
}

export function ForgotPage() {
  const [sent, setSent] = useState(false);
  return (
    <section class="card">
      <h1>Forgot your password?</h1>
      {sent ? (
        <p class="ok" role="status">
          If an account has that address, a link to choose a new password is on its way.
        </p>
      ) : (
        <ActionForm
          submit="Send the link"
          label="Forgot password"
          onSubmit={async (d) => {
            await api('/api/v1/auth/forgot-password', { method: 'POST', anonymous: true, body: { email: text(d, 'email') } });
            setSent(true);
          }}
        >
          <Field label="E-mail" name="email" type="email" autoComplete="email" required />
        </ActionForm>
      )}
      <p class="links">
        <Link href="/sign-in">Back to sign in</Link>
      </p>
    </section>
  );
}

/** The link the platform mails: `/reset-password?token=…`. */
export function ResetPage() {
  const { query } = useLocation();
  const token = query.get('token') ?? '';
  return (
    <section class="card">
      <h1>Choose a new password</h1>
      {!token ? <p class="error" role="alert">This link has no token; ask for a new one.</p> : null}
      <ActionForm
        submit="Set the password"
        label="Reset password"
        onSubmit={async (d) => {
          await api('/api/v1/auth/reset-password', { method: 'POST', anonymous: true, body: { token, password: String(d.get('password')) } });
          navigate(`/sign-in?done=${encodeURIComponent('Your password is changed. Sign in with it.')}`, { replace: true });
        }}
      >
        <Field label="New password" name="password" type="password" autoComplete="new-password" minLength={8} required hint="At least 8 characters" />
      </ActionForm>
    </section>
  );
}

/** The invitation link: `/activate?token=…`; name, password and a profile image, then signed in. */
export function ActivatePage() {
  const { query } = useLocation();
  const token = query.get('token') ?? '';
  const qc = useQueryClient();
  return (
    <section class="card">
      <h1>Accept your invitation</h1>
      {!token ? <p class="error" role="alert">This link has no token; ask for a new invitation.</p> : null}
      <ActionForm
        submit="Activate my account"
        label="Activate"
        onSubmit={async (d) => {
          const form = new FormData();
          form.set('token', token);
          form.set('name', text(d, 'name'));
          form.set('password', String(d.get('password')));
          const image = d.get('profileImage');
          if (image instanceof File && image.size > 0) form.set('profileImage', image);
          const user = await api<{ email: string }>('/api/v1/users/activate', { method: 'PUT', anonymous: true, body: form });
          qc.clear();
          await signIn(user.email, String(d.get('password')));
          navigate('/devices', { replace: true });
        }}
      >
        <Field label="Your name" name="name" autoComplete="name" required />
        <Field label="Password" name="password" type="password" autoComplete="new-password" minLength={8} required hint="At least 8 characters" />
        <Field label="Profile image (optional)" name="profileImage" type="file" accept="image/png,image/jpeg,image/webp" />
      </ActionForm>
    </section>
  );
}

export function ProfilePage() {
  const { me } = useSession();
  const qc = useQueryClient();
  const [saved, setSaved] = useState('');
  if (!me) return <Loading />;
  return (
    <section>
      <h1>Profile</h1>
      <div class="columns">
        <div class="card">
          <h2>About you</h2>
          {me.hasProfileImage ? <ProfileImage id={me.id} /> : null}
          <p class="muted">
            {me.email} · {me.username}
          </p>
          <ActionForm
            submit="Save"
            label="Profile"
            onSubmit={async (d) => {
              await api(`/api/v1/users/${me.id}/profile`, { method: 'PUT', body: { name: text(d, 'name'), title: text(d, 'title') || null, phone: text(d, 'phone') || null } });
              await qc.invalidateQueries({ queryKey: ['me'] });
              setSaved('Profile saved.');
            }}
          >
            <Field label="Name" name="name" defaultValue={me.name} required />
            <Field label="Title" name="title" defaultValue={me.title ?? ''} />
            <Field label="Phone" name="phone" defaultValue={me.phone ?? ''} />
          </ActionForm>
          {saved ? <p class="ok" role="status">{saved}</p> : null}
        </div>
        <div class="card">
          <h2>Password</h2>
          <ActionForm
            submit="Change the password"
            label="Change password"
            onSubmit={async (d) => {
              await api('/api/v1/users/password', { method: 'PUT', body: { currentPassword: String(d.get('current')), newPassword: String(d.get('next')) } });
              setSaved('Password changed.');
            }}
          >
            <Field label="Current password" name="current" type="password" autoComplete="current-password" required />
            <Field label="New password" name="next" type="password" autoComplete="new-password" minLength={8} required />
          </ActionForm>
        </div>
      </div>
    </section>
  );
}

function ProfileImage({ id }: { id: number }) {
  const image = useQuery({
    queryKey: ['profile-image', id],
    queryFn: async () => URL.createObjectURL(await (await api<Response>(`/api/v1/users/${id}/image`, { raw: true })).blob()),
    staleTime: Infinity,
  });
  return image.data ? <img class="avatar" src={image.data} alt="Your profile image" width={64} height={64} /> : <div class="avatar" aria-hidden="true" />;
}
