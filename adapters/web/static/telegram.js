// Inside Telegram: its WebApp script (unless the client put it there already), its
// theme's colours, the Mini App's ready and expand, and the buzz of a play or a refusal.
import { page } from './state.js';

const TELEGRAM_JS = 'https://telegram.org/js/telegram-web-app.js';

function loadTelegram() {
  if (window.Telegram && window.Telegram.WebApp) return Promise.resolve(window.Telegram.WebApp);
  return new Promise((resolve) => {
    const script = document.createElement('script');
    script.src = TELEGRAM_JS;
    script.onload = () => resolve(window.Telegram ? window.Telegram.WebApp : null);
    script.onerror = () => resolve(null);
    document.head.append(script);
  });
}

function theme(params) {
  const names = {
    bg_color: '--bg', text_color: '--fg', hint_color: '--muted', button_color: '--accent',
    button_text_color: '--accent-fg', secondary_bg_color: '--panel',
  };
  for (const [name, property] of Object.entries(names)) {
    if (params && params[name]) document.documentElement.style.setProperty(property, params[name]);
  }
}

// Whether the address says the page was opened inside Telegram.
export const inTelegram = () => location.hash.includes('tgWebAppData');

// Becomes a Mini App: Telegram's object kept, told the page is ready, its colours taken.
export async function joinTelegram() {
  page.tg = await loadTelegram();
  if (page.tg) {
    page.tg.ready();
    page.tg.expand();
    theme(page.tg.themeParams);
    page.tg.onEvent('themeChanged', () => theme(page.tg.themeParams));
  }
}

export function haptic(ok) {
  const feedback = page.tg && page.tg.HapticFeedback;
  if (!feedback) return;
  if (ok) feedback.impactOccurred('light');
  else feedback.notificationOccurred('error');
}
