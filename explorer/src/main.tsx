/** The explorer: one page at `/`, routes in the URL's hash (#/tx/<hash>, #/account/<addr>…). */
import { render } from 'preact';
import { useEffect } from 'preact/hooks';
import { Block, Blocks, Home, Search, Tx, Txs } from './chain';
import { Account, Asset, Assets } from './holdings';
import { Bridge, Delegation, Encumbrance, Invariants, Settlement, Settlements } from './records';
import { Desk, Launchpad, Lender } from './services';
import { href, useRoute, type Route } from './ui';
import './style.css';

function Page({ route }: { route: Route }) {
  const [page, arg] = route.parts;
  switch (page) {
    case undefined:
      return <Home />;
    case 'blocks':
      return <Blocks route={route} />;
    case 'block':
      return <Block height={arg} />;
    case 'txs':
      return <Txs route={route} />;
    case 'tx':
      return <Tx hash={arg} />;
    case 'search':
      return <Search q={arg ?? ''} />;
    case 'account':
      return <Account addr={arg} route={route} />;
    case 'assets':
      return <Assets route={route} />;
    case 'asset':
      return <Asset id={arg} route={route} />;
    case 'settlements':
      return <Settlements route={route} />;
    case 'settlement':
      return <Settlement id={arg} />;
    case 'encumbrance':
      return <Encumbrance id={arg} />;
    case 'delegation':
      return <Delegation id={arg} />;
    case 'bridge':
      return <Bridge route={route} />;
    case 'invariants':
      return <Invariants route={route} />;
    case 'desk':
      return <Desk />;
    case 'lender':
      return <Lender route={route} />;
    case 'launchpad':
      return <Launchpad />;
    default:
      return (
        <section>
          <h1>Not a page</h1>
          <p>
            Nothing here; go <a href="#/">home</a>.
          </p>
        </section>
      );
  }
}

const NAV: [string, string][] = [
  ['home', '#/'],
  ['blocks', href(['blocks'])],
  ['txs', href(['txs'])],
  ['assets', href(['assets'])],
  ['settlements', href(['settlements'])],
  ['bridge', href(['bridge'])],
  ['invariants', href(['invariants'])],
  ['desk', href(['desk'])],
  ['lender', href(['lender'])],
  ['launchpad', href(['launchpad'])],
];

function App() {
  const route = useRoute();
  const key = route.parts.join('/');
  useEffect(() => {
    document.title = `svc explorer${key ? ` · ${route.parts[0]}` : ''}`;
    if (!route.query.toString()) window.scrollTo(0, 0);
  }, [key]);
  const current = route.parts[0] ?? 'home';
  return (
    <>
      <header>
        <nav class="top" aria-label="pages">
          {NAV.map(([name, to]) => (
            <a
              key={name}
              href={to}
              aria-current={current === name || (current === 'home' && name === 'home') ? 'page' : undefined}
            >
              {name}
            </a>
          ))}
        </nav>
      </header>
      <main>
        <Page route={route} key={key} />
      </main>
      <footer class="muted">
        Read from this server's <a href="/openapi.yaml">/v1</a> and <a href="/api/openapi.yaml">/api</a>; times in UTC;
        hover an amount for its raw integer.
      </footer>
    </>
  );
}

render(<App />, document.getElementById('app')!);
performance.mark('explorer-rendered');
