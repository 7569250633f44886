/** The display page: login until there is a session, then the endpoint picker, the kitchen or the pass. */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { messages, useLanguage } from '../shared/i18n';
import { call, logout, session } from './api';
import { Expo } from './Expo';
import { go, kitchenPath, useRoute, useSession } from './hooks';
import { Kitchen, type Endpoint } from './Kitchen';
import { Login } from './Login';

const t = messages({
  which: { en: 'Which display is this?', sk: 'Ktorý displej je toto?', cs: 'Který displej je tohle?' },
  none: { en: 'No active order endpoint of type Tablet. The manager adds one under Devices.', sk: 'Žiadne aktívne výdajné miesto typu Tablet. Vedúci ho pridá v časti Zariadenia.', cs: 'Žádné aktivní výdejní místo typu Tablet. Vedoucí ho přidá v části Zařízení.' },
  pass: { en: 'The pass (every endpoint)', sk: 'Výdaj (všetky výdajné miesta)', cs: 'Výdej (všechna výdejní místa)' },
  logout: { en: 'Log out', sk: 'Odhlásiť', cs: 'Odhlásit' },
});

function Picker(): JSX.Element {
  const [list, setList] = useState<Endpoint[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    call<{ items: Endpoint[] }>('GET', '/api/orderendpoints?isActive=true&$take=1000')
      .then((r) => setList(r.items))
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, []);
  const tablets = list?.filter((e) => e.type === 'Tablet') ?? [];
  return (
    <div class="center-page">
      <h1>{t('which')}</h1>
      {error && <p class="error">{error}</p>}
      {list && tablets.length === 0 && <p>{t('none')}</p>}
      <div class="picker">
        {tablets.map((e) => (
          <button class="big" type="button" key={e.name} onClick={() => go(kitchenPath(e.name))}>
            {e.name}
          </button>
        ))}
        <button class="big ghost" type="button" onClick={() => go('/expo')}>
          {t('pass')}
        </button>
      </div>
      <button class="chip ghost" type="button" onClick={() => void logout()}>
        {t('logout')}
      </button>
    </div>
  );
}

export function App(): JSX.Element {
  // Every text follows the language: the user's (from the session), else the shop's.
  useLanguage();
  const s = useSession();
  const route = useRoute();
  // A paired display opened at /kds goes straight to its own endpoint.
  const paired = s?.orderEndpointName;
  useEffect(() => {
    if (route.kind === 'picker' && paired) go(kitchenPath(paired));
  }, [route.kind, paired]);
  if (!s || !session()) return <Login endpoint={route.kind === 'kitchen' ? route.name : route.kind === 'expo' ? route.name : null} />;
  if (route.kind === 'kitchen') return <Kitchen key={route.name} name={route.name} />;
  if (route.kind === 'expo') return <Expo key={`${route.name}|${route.endpoints?.join(',')}`} name={route.name} endpoints={route.endpoints} />;
  return <Picker />;
}
