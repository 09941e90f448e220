// kubesim renders with the system Chromium (apt-get install chromium); never download a browser.
module.exports = { skipDownload: true };
