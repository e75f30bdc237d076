// Drives a real headless browser (Debian's Chromium, through playwright-core) over a
// reports/index.html loaded from disk: the page must make no request beyond its own
// file, sort a column both ways, filter a language, and draw a screenshot that is
// not blank. Usage: node index_page.mjs INDEX.html SCREENSHOT.png
// Prints one line of JSON on success; any failed check exits non-zero with why.
import { chromium } from "playwright-core";
import { pathToFileURL } from "node:url";
import { writeFileSync } from "node:fs";

const [page_path, screenshot_path] = process.argv.slice(2);
if (!page_path || !screenshot_path) {
  throw new Error("usage: node index_page.mjs INDEX.html SCREENSHOT.png");
}
const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";

function check(condition, what) {
  if (!condition) {
    throw new Error(`index page: ${what}`);
  }
}

// The visible rows' values of column `index` (data-value), in table order.
async function column(page, index) {
  return page.$$eval(
    "#rows tbody tr:not([hidden])",
    (rows, i) => rows.map((r) => r.cells[i].dataset.value),
    index,
  );
}

function sortedNumbers(values, ascending) {
  const present = values.filter((v) => v !== "");
  const blanksLast = values.slice(present.length).every((v) => v === "");
  const numbers = present.map(Number);
  const inOrder = numbers.every((n, i) =>
    i === 0 || (ascending ? numbers[i - 1] <= n : numbers[i - 1] >= n));
  return blanksLast && inOrder && present.length > 0;
}

const browser = await chromium.launch({
  executablePath,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const outside = [];
  await page.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith("file:") || url.startsWith("data:")) {
      return route.continue();
    }
    outside.push(url);
    return route.abort();
  });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(pathToFileURL(page_path).href);
  const total = await page.$$eval("#rows tbody tr", (rows) => rows.length);
  check(total > 0, "no rows");
  check(
    (await page.textContent("#shown")) === `${total} of ${total} rows shown`,
    "the row count is not shown",
  );

  // Sort by coverage: ascending, then descending; rows without one stay last.
  const headings = await page.$$eval("#rows thead th", (ths) => ths.map((t) => t.textContent));
  const coverage = headings.indexOf("coverage");
  check(coverage >= 0, "no coverage column");
  const heading = page.locator("#rows thead th").nth(coverage);
  await heading.click();
  check(sortedNumbers(await column(page, coverage), true), "coverage does not sort ascending");
  check((await heading.getAttribute("aria-sort")) === "ascending", "no ascending mark");
  await heading.click();
  check(sortedNumbers(await column(page, coverage), false), "coverage does not sort descending");

  // Filter a language: only its rows remain, and the count says so.
  const languages = await page.$$eval("#language option", (os) => os.map((o) => o.value).filter(Boolean));
  check(languages.length > 0, "no language to filter");
  const language = languages.includes("python") ? "python" : languages[0];
  const expected = await page.$$eval(
    "#rows tbody tr",
    (rows, l) => rows.filter((r) => r.dataset.language === l).length,
    language,
  );
  await page.selectOption("#language", language);
  const shown = await page.$$eval("#rows tbody tr:not([hidden])", (rows) => rows.map((r) => r.dataset.language));
  check(shown.length === expected && shown.every((l) => l === language), `the ${language} filter shows other rows`);
  check(
    (await page.textContent("#shown")) === `${expected} of ${total} rows shown`,
    "the count does not follow the filter",
  );
  await page.selectOption("#language", "");

  // A screenshot that is not blank: the browser decodes it and counts its colours.
  const png = await page.screenshot({ fullPage: false });
  writeFileSync(screenshot_path, png);
  const pixels = await page.evaluate(async (data) => {
    const image = new Image();
    image.src = `data:image/png;base64,${data}`;
    await image.decode();
    const canvas = document.createElement("canvas");
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext("2d");
    context.drawImage(image, 0, 0);
    const { data: rgba } = context.getImageData(0, 0, image.width, image.height);
    const colours = new Set();
    let ink = 0;
    for (let i = 0; i < rgba.length; i += 4) {
      colours.add((rgba[i] << 16) | (rgba[i + 1] << 8) | rgba[i + 2]);
      if (rgba[i] < 200 || rgba[i + 1] < 200 || rgba[i + 2] < 200) {
        ink += 1;
      }
    }
    return { width: image.width, height: image.height, colours: colours.size, ink };
  }, png.toString("base64"));
  check(pixels.width === 1400 && pixels.height === 1000, "the screenshot has the wrong size");
  check(pixels.colours >= 16, `a blank screenshot: ${pixels.colours} colours`);
  check(pixels.ink > pixels.width * pixels.height * 0.01, "a blank screenshot: almost no ink");
  const svgs = await page.$$eval("svg", (s) => s.length);
  check(svgs === 3, `${svgs} charts on the page, expected 3`);
  check(errors.length === 0, `script errors: ${errors.join("; ")}`);
  check(outside.length === 0, `requests outside the file: ${outside.join(", ")}`);
  console.log(JSON.stringify({ rows: total, language, filtered: expected, ...pixels }));
} finally {
  await browser.close();
}
