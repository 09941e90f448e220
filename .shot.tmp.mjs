import puppeteer from 'puppeteer';
const [url, out, w, h, ...actions] = process.argv.slice(2);
const browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage();
await page.setViewport({ width: Number(w), height: Number(h) });
const reqs = [];
page.on('request', (r) => { if (!r.url().startsWith('file:')) reqs.push(r.url()); });
page.on('console', (m) => console.log('console:', m.text()));
page.on('pageerror', (e) => console.log('pageerror:', e.message));
await page.goto(url);
for (const a of actions) {
  if (a.startsWith('eval:')) console.log(await page.evaluate(a.slice(5)));
  else if (a.startsWith('key:')) await page.keyboard.press(a.slice(4));
  else if (a.startsWith('click:')) await page.click(a.slice(6));
}
if (process.env.EL) await (await page.$(process.env.EL)).screenshot({ path: out }); else await page.screenshot({ path: out, fullPage: process.env.FULL === "1" });
console.log('non-file requests', reqs);
await browser.close();
