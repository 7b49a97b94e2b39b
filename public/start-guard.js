// Chromium aborts the application's module scripts when its service worker stops while serving them (the end-to-end
// suite met it): the page then stays blank, with no error anywhere a user could see. This classic
// script runs before the application's modules and watches their start: on a failure it reloads the page once (the
// reload starts the service worker again, online or offline); a second failure within a minute shows a message with
// a reload button instead of looping. It cannot use the application's translations: they are part of what failed.
(function watchStart() {
  const RETRIED_AT = 'terrain-start-retried-at';
  const RETRY_WINDOW_MS = 60_000;
  const MESSAGES = {
    fr: {
      title: 'Terrain n’a pas pu démarrer',
      text: 'Une partie de l’application n’a pas pu être chargée. Rechargez la page ; si cela se reproduit, vérifiez la connexion.',
      reload: 'Recharger la page',
    },
    en: {
      title: 'Terrain could not start',
      text: 'Part of the application could not be loaded. Reload the page; if this happens again, check the connection.',
      reload: 'Reload the page',
    },
  };
  let failed = false;

  function language() {
    let stored = null;
    try {
      stored = localStorage.getItem('lang');
    } catch {
      // storage blocked: the browser's language decides
    }
    const tag = (stored || navigator.language || '').slice(0, 2).toLowerCase();
    return tag === 'en' ? 'en' : 'fr';
  }

  function retriedRecently() {
    try {
      const at = Number(sessionStorage.getItem(RETRIED_AT));
      if (at && Date.now() - at < RETRY_WINDOW_MS) return true;
      sessionStorage.setItem(RETRIED_AT, String(Date.now()));
      return false;
    } catch {
      // Without storage a reload could loop: show the message at once.
      return true;
    }
  }

  function showMessage() {
    const locale = language();
    const words = MESSAGES[locale];
    document.documentElement.lang = locale;
    const main = document.createElement('main');
    Object.assign(main.style, {
      maxWidth: '32rem',
      margin: '15vh auto 0',
      padding: '1.5rem',
      fontFamily: 'system-ui, sans-serif',
      color: '#1c1c1c',
      lineHeight: '1.5',
    });
    const title = document.createElement('h1');
    title.textContent = words.title;
    Object.assign(title.style, { fontSize: '1.5rem', fontWeight: '600', margin: '0 0 0.75rem' });
    const text = document.createElement('p');
    text.textContent = words.text;
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = words.reload;
    Object.assign(button.style, {
      minHeight: '44px',
      padding: '0 1.25rem',
      marginTop: '1rem',
      border: '0',
      borderRadius: '0.5rem',
      background: '#1f5130',
      color: '#ffffff',
      fontSize: '1rem',
      cursor: 'pointer',
    });
    button.addEventListener('click', () => location.reload());
    main.append(title, text, button);
    const root = document.getElementById('root');
    if (root) root.replaceChildren(main);
    else document.body.append(main);
  }

  function startFailed() {
    if (failed) return;
    failed = true;
    if (retriedRecently()) showMessage();
    else location.reload();
  }

  // A module script's `error` event says that it or one of the modules it imports could not be fetched. It does
  // not bubble: only a listener capturing on the window sees it.
  window.addEventListener(
    'error',
    (event) => {
      const target = event.target;
      if (target instanceof HTMLScriptElement && target.type === 'module') startFailed();
    },
    true,
  );
  // The application says so itself when what it loads before its first render fails.
  window.addEventListener('terrain:start-failed', startFailed);
})();
