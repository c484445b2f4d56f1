/* global document */
// Until the app runs, the pre-rendered sign-in form's button is a plain button (web/scripts/prerender.mjs:
// a native submission would put the password in the URL). A click on it, or Enter in one of its fields,
// is remembered on the form here; the app submits the form once it has taken it over
// (web/src/app/boot/prerendered.ts). Loaded async by the pre-rendered pages only.
(function () {
  var ROOT = '#root > [data-prerendered]';
  function request(form) {
    if (form && form.closest(ROOT)) form.setAttribute('data-submit-requested', '');
  }
  document.addEventListener(
    'click',
    function (e) {
      var button = e.target && e.target.closest ? e.target.closest('button[data-submit]') : null;
      if (button) request(button.form);
    },
    true,
  );
  document.addEventListener(
    'keydown',
    function (e) {
      if (e.key !== 'Enter' || e.isComposing) return;
      var field = e.target;
      if (field && field.tagName === 'INPUT' && field.type !== 'checkbox') request(field.form);
    },
    true,
  );
})();
