/*
 * Starts Swagger UI on the API documentation page (`/api/docs`). A served file rather than an
 * inline script, so the page works under `script-src 'self'` (the kernel's Content-Security-Policy).
 * The OpenAPI document's URL comes from the container's `data-url` attribute.
 */
(function () {
  'use strict';
  var root = document.getElementById('swagger-ui');
  if (root === null || typeof window.SwaggerUIBundle !== 'function') return;
  window.ui = window.SwaggerUIBundle({
    url: root.getAttribute('data-url'),
    domNode: root,
    deepLinking: true,
    // no badge fetched from a third-party validator
    validatorUrl: null,
    presets: [window.SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    defaultModelsExpandDepth: 1,
    displayRequestDuration: true,
  });
}());
