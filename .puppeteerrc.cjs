// Browsers come from Debian (CHROMIUM_PATH); the download would fail offline and is never wanted.
module.exports = { skipDownload: true };
