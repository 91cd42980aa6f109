// The /docs page is swagger-ui's. Its markup fails axe-core in a few places that its options
// cannot reach, so this script (served by @fastify/swagger-ui as a theme script) amends the
// DOM after each render: one main landmark, the logo named and linked home, names for the
// icon-only buttons and the unlabelled fields, the tag headings at level 2 under the h1 (an operation's own headings below them),
// and no link nested inside the operation summaries' buttons (the button already opens the
// operation and deep linking sets the address, so the inner link added nothing but a second
// control inside the first). Only attributes are changed, never the elements React renders.
(function () {
  'use strict';
  function nameIt(el, name) {
    if (!el.getAttribute('aria-label') && !(el.textContent || '').trim()) el.setAttribute('aria-label', name);
  }
  function amend() {
    var ui = document.getElementById('swagger-ui');
    if (ui && ui.getAttribute('role') !== 'main') ui.setAttribute('role', 'main');
    document.querySelectorAll('.topbar a.link').forEach(function (a) {
      if (!a.getAttribute('href')) a.setAttribute('href', '/');
    });
    document.querySelectorAll('.topbar img:not([alt])').forEach(function (img) { img.setAttribute('alt', 'metaserver home'); });
    document.querySelectorAll('img:not([alt])').forEach(function (img) { img.setAttribute('alt', ''); });
    document.querySelectorAll('.dark-mode-toggle button').forEach(function (b) { nameIt(b, 'Switch between light and dark mode'); });
    document.querySelectorAll('.copy-to-clipboard button, button.copy-to-clipboard').forEach(function (b) { nameIt(b, 'Copy to clipboard'); });
    document.querySelectorAll('button').forEach(function (b) { nameIt(b, b.getAttribute('title') || 'Show or hide'); });
    document.querySelectorAll('.opblock-summary-control a[href]').forEach(function (a) { a.removeAttribute('href'); });
    document.querySelectorAll('h3.opblock-tag, .models h4, section.models > h4').forEach(function (h) {
      h.setAttribute('role', 'heading');
      h.setAttribute('aria-level', '2');
    });
    // Inside an operation (under its level-2 tag heading): h4 one level down, h5 the next.
    document.querySelectorAll('.opblock h4, .opblock h5').forEach(function (h) {
      h.setAttribute('role', 'heading');
      h.setAttribute('aria-level', h.tagName === 'H4' ? '3' : '4');
    });
    // The servers choice (shown once the document names its server) sits in a label with no
    // words of its own: name the field itself.
    document.querySelectorAll('.servers select').forEach(function (s) { if (!s.getAttribute('aria-label')) s.setAttribute('aria-label', 'Server'); });
    document.querySelectorAll('input:not([type="hidden"]), select, textarea').forEach(function (field) {
      if (field.labels && field.labels.length) return;
      if (field.getAttribute('aria-label') || field.getAttribute('aria-labelledby')) return;
      var row = field.closest('tr[data-param-name]');
      var name = row ? row.getAttribute('data-param-name') : field.getAttribute('placeholder') || field.id || field.className || 'value';
      if (field.id === 'download-url-input') name = 'OpenAPI document URL';
      if (field.closest('.servers')) name = 'Server';
      if (field.closest('.content-type') || field.classList.contains('content-type')) name = 'Media type';
      field.setAttribute('aria-label', name);
    });
  }
  var pending = false;
  new MutationObserver(function () {
    if (pending) return;
    pending = true;
    requestAnimationFrame(function () { pending = false; amend(); });
  }).observe(document.documentElement, { childList: true, subtree: true });
  document.addEventListener('DOMContentLoaded', amend);
})();
