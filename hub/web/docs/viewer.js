/*
 * The API's readable docs at /api/docs/ (issue 21): a light viewer of /api/openapi.json that lists
 * every operation at once, grouped by tag, and opens one on a click. Swagger UI took 8–20 s to show
 * the operations of our 0.5 MB document on a shop's tablet (it resolves the whole document first);
 * this reads the JSON and writes the list, and renders an operation's details only when it is
 * opened. Swagger UI stays one link away (/api/docs/swagger/) for trying requests out.
 * Plain browser script, no build step: the hub serves it as it is, also when the page is not built.
 */
(function () {
  'use strict';
  var root = document.getElementById('docs');
  var specUrl = root.getAttribute('data-spec-url');
  var METHODS = ['get', 'post', 'put', 'patch', 'delete'];

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === 'text') node.textContent = attrs[k];
      else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) {
      if (c) node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    });
    return node;
  }

  /** Descriptions use `code`, **bold** and blank lines; nothing else of Markdown is needed here. */
  function prose(text) {
    var box = el('div', { class: 'prose' });
    String(text || '')
      .split(/\n{2,}/)
      .forEach(function (para) {
        var p = el('p');
        para.split(/(`[^`]+`|\*\*[^*]+\*\*)/).forEach(function (part) {
          if (/^`[^`]+`$/.test(part)) p.appendChild(el('code', { text: part.slice(1, -1) }));
          else if (/^\*\*[^*]+\*\*$/.test(part)) p.appendChild(el('b', { text: part.slice(2, -2) }));
          else if (part) p.appendChild(document.createTextNode(part));
        });
        box.appendChild(p);
      });
    return box;
  }

  function refName(ref) {
    return String(ref).split('/').pop();
  }

  /** A schema as indented JSON, its $refs as links to the schema list below. */
  function schemaView(schema) {
    var pre = el('pre', { class: 'schema' });
    var json = JSON.stringify(schema, null, 2) || '';
    json.split(/("\$ref": "[^"]+")/).forEach(function (part) {
      var m = /^"\$ref": "([^"]+)"$/.exec(part);
      if (m) {
        pre.appendChild(document.createTextNode('"$ref": '));
        pre.appendChild(el('a', { href: '#schema-' + refName(m[1]), text: refName(m[1]) }));
      } else pre.appendChild(document.createTextNode(part));
    });
    return pre;
  }

  function contentSchemas(content) {
    return Object.keys(content || {}).map(function (type) {
      return el('div', { class: 'media' }, [el('div', { class: 'media-type', text: type }), schemaView(content[type].schema)]);
    });
  }

  function details(op) {
    var box = el('div', { class: 'op-body' });
    box.appendChild(prose(op.description));
    if (op['x-rights'] && op['x-rights'].length) box.appendChild(el('p', { class: 'rights' }, ['Rights: ', el('code', { text: op['x-rights'].join(', ') })]));
    if (op.parameters && op.parameters.length) {
      var rows = op.parameters.map(function (p) {
        return el('tr', {}, [
          el('td', {}, [el('code', { text: p.name }), p.required ? el('span', { class: 'req', text: ' *' }) : null]),
          el('td', { text: p.in }),
          el('td', { text: (p.schema && (p.schema.type || (p.schema.$ref && refName(p.schema.$ref)) || (p.schema.enum && p.schema.enum.join(' | ')))) || '' }),
          el('td', {}, [prose(p.description)]),
        ]);
      });
      box.appendChild(el('h4', { text: 'Parameters' }));
      box.appendChild(el('table', {}, [el('tr', {}, ['Name', 'In', 'Type', 'Description'].map(function (h) { return el('th', { text: h }); }))].concat(rows)));
    }
    if (op.requestBody) {
      box.appendChild(el('h4', { text: 'Request body' + (op.requestBody.required ? ' (required)' : '') }));
      contentSchemas(op.requestBody.content).forEach(function (n) { box.appendChild(n); });
    }
    box.appendChild(el('h4', { text: 'Responses' }));
    Object.keys(op.responses || {}).forEach(function (status) {
      var r = op.responses[status];
      var item = el('details', { class: 'response' }, [el('summary', {}, [el('b', { text: status + ' ' }), r.description || ''])]);
      item.addEventListener('toggle', function once() {
        item.removeEventListener('toggle', once);
        contentSchemas(r.content).forEach(function (n) { item.appendChild(n); });
      });
      box.appendChild(item);
    });
    return box;
  }

  function operation(method, path, op) {
    var item = el('details', { class: 'op', id: op.operationId || method + path, 'data-search': (method + ' ' + path + ' ' + (op.summary || '')).toLowerCase() }, [
      el('summary', {}, [el('span', { class: 'method ' + method, text: method.toUpperCase() }), el('code', { class: 'path', text: path }), el('span', { class: 'summary', text: op.summary || '' })]),
    ]);
    // The details of 100 operations are most of the document: made when one is opened.
    item.addEventListener('toggle', function once() {
      item.removeEventListener('toggle', once);
      item.appendChild(details(op));
    });
    return item;
  }

  function render(doc) {
    var byTag = {};
    var order = (doc.tags || []).map(function (t) { return t.name; });
    Object.keys(doc.paths || {}).forEach(function (path) {
      METHODS.forEach(function (method) {
        var op = doc.paths[path][method];
        if (!op) return;
        var tag = (op.tags && op.tags[0]) || 'Other';
        if (!byTag[tag]) byTag[tag] = [];
        if (order.indexOf(tag) < 0) order.push(tag);
        byTag[tag].push(operation(method, path, op));
      });
    });
    var filter = el('input', { type: 'search', placeholder: 'Filter operations (path, method, summary)', 'aria-label': 'Filter operations' });
    var sections = order
      .filter(function (tag) { return byTag[tag]; })
      .map(function (tag) { return el('section', { class: 'tag' }, [el('h2', { text: tag })].concat(byTag[tag])); });
    filter.addEventListener('input', function () {
      var q = filter.value.trim().toLowerCase();
      root.querySelectorAll('.op').forEach(function (op) {
        op.hidden = q !== '' && op.getAttribute('data-search').indexOf(q) < 0;
      });
    });
    var schemas = doc.components && doc.components.schemas ? doc.components.schemas : {};
    var schemaList = Object.keys(schemas).map(function (name) {
      var item = el('details', { class: 'schema-item', id: 'schema-' + name }, [el('summary', {}, [el('code', { text: name })])]);
      item.addEventListener('toggle', function once() {
        item.removeEventListener('toggle', once);
        item.appendChild(schemaView(schemas[name]));
      });
      return item;
    });
    var info = doc.info || {};
    root.textContent = '';
    root.appendChild(
      el('header', {}, [
        el('h1', { text: (info.title || 'API') + ' ' + (info.version || '') }),
        prose(info.description),
        el('p', {}, [
          el('a', { href: specUrl, text: 'The OpenAPI document' }),
          ' · ',
          el('a', { href: 'swagger/', text: 'Try requests out (Swagger UI)' }),
        ]),
        filter,
      ]),
    );
    sections.forEach(function (s) { root.appendChild(s); });
    root.appendChild(el('section', { class: 'tag' }, [el('h2', { text: 'Schemas' })].concat(schemaList)));
    // A link to an operation or a schema (#id) opens it.
    var target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target && target.tagName === 'DETAILS') {
      target.open = true;
      target.scrollIntoView();
    }
    root.setAttribute('data-ready', 'true');
  }

  fetch(specUrl)
    .then(function (r) {
      if (!r.ok) throw new Error(r.status + ' ' + r.statusText);
      return r.json();
    })
    .then(render)
    .catch(function (e) {
      root.textContent = 'The API description could not be loaded (' + e.message + '). It is at ' + specUrl + '.';
    });
})();
