/**
 * The truenas/apps catalog rules, written from their documentation (shared/guides/platform.md
 * §1.2–1.5, which reads apps_validation's json_schema_utils.py, validate_questions.py and
 * apps_schema/). The upstream validator is not on PyPI, so this is our own re-statement:
 * app.yaml as a JSON Schema, questions.yaml as a recursive check, and a structural check of the
 * Jinja2 compose template against the questions and ix_values.yaml.
 */
import { Ajv } from 'ajv';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };
const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

const SEMVER = '^\\d+\\.\\d+\\.\\d+$';

/** app.yaml (APP_METADATA_JSON_SCHEMA as described in §1.3). */
export const APP_YAML_SCHEMA = {
  type: 'object',
  required: ['name', 'train', 'version', 'app_version', 'title', 'description', 'home', 'sources', 'maintainers', 'run_as_context', 'capabilities', 'host_mounts'],
  properties: {
    name: { type: 'string', pattern: '^[a-z]([-a-z0-9]*[a-z0-9])?$' },
    train: { type: 'string', enum: ['community', 'stable', 'enterprise', 'dev', 'test'] },
    version: { type: 'string', pattern: SEMVER },
    app_version: { type: 'string', minLength: 1 },
    title: { type: 'string', minLength: 1 },
    description: { type: 'string', minLength: 1 },
    home: { type: 'string', pattern: '^https?://' },
    sources: { type: 'array', minItems: 1, items: { type: 'string', pattern: '^https?://' } },
    maintainers: {
      type: 'array', minItems: 1,
      items: { type: 'object', required: ['name', 'email'], properties: { name: { type: 'string' }, email: { type: 'string', pattern: '^[^@\\s]+@[^@\\s]+$' }, url: { type: 'string' } }, additionalProperties: false },
    },
    run_as_context: {
      type: 'array',
      items: {
        type: 'object', required: ['description'], additionalProperties: false,
        properties: { description: { type: 'string' }, uid: { type: 'integer' }, gid: { type: 'integer' }, user_name: { type: 'string' }, group_name: { type: 'string' } },
      },
    },
    capabilities: { type: 'array', items: { type: 'object', required: ['name', 'description'], additionalProperties: false, properties: { name: { type: 'string', pattern: '^[A-Z_]+$' }, description: { type: 'string' } } } },
    host_mounts: { type: 'array', items: { type: 'object', required: ['host_path', 'description'], additionalProperties: false, properties: { host_path: { type: 'string', pattern: '^/' }, description: { type: 'string' } } } },
    annotations: {
      type: 'object', additionalProperties: false,
      properties: { min_scale_version: { type: 'string' }, max_scale_version: { type: 'string' }, disallow_multiple_instances: { type: 'boolean' } },
    },
    categories: { type: 'array', items: { type: 'string' } },
    keywords: { type: 'array', items: { type: 'string' } },
    screenshots: { type: 'array', items: { type: 'string' } },
    icon: { type: 'string' },
    date_added: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
    changelog_url: { type: 'string' },
    lib_version: { type: 'string', pattern: SEMVER },
    lib_version_hash: { type: 'string' },
  },
  additionalProperties: false,
  dependencies: { lib_version: ['lib_version_hash'] },
} as const;

export function appYamlErrors(doc: unknown, dir: { name: string; train: string }): string[] {
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validate = ajv.compile(APP_YAML_SCHEMA);
  const errors = validate(doc) ? [] : (validate.errors ?? []).map((e) => `app.yaml${e.instancePath} ${e.message ?? ''}`);
  if (isObject(doc)) {
    if (doc.name !== dir.name) errors.push(`app.yaml name "${String(doc.name)}" is not the directory name "${dir.name}"`);
    if (doc.train !== dir.train) errors.push(`app.yaml train "${String(doc.train)}" is not the parent directory "${dir.train}"`);
  }
  return errors;
}

/** ix_values.yaml: `images` whose keys end in `image`, each `{repository, tag}`; optional `consts`. */
export function ixValuesErrors(doc: unknown): string[] {
  if (!isObject(doc)) return ['ix_values.yaml is not a mapping'];
  const errors: string[] = [];
  const images = doc.images;
  if (!isObject(images) || Object.keys(images).length === 0) errors.push('ix_values.yaml needs images');
  else for (const [k, v] of Object.entries(images)) {
    if (!k.endsWith('image')) errors.push(`images.${k}: keys must end in "image"`);
    if (!isObject(v) || typeof v.repository !== 'string' || (typeof v.tag !== 'string' && typeof v.tag !== 'number')) errors.push(`images.${k} needs repository and tag`);
    else if (String(v.tag) === 'latest') errors.push(`images.${k}: tag "latest" is not allowed`);
  }
  if (doc.consts !== undefined && !isObject(doc.consts)) errors.push('consts must be a mapping');
  return errors;
}

const TYPE_KEYS: Record<string, string[]> = {
  string: ['min_length', 'max_length', 'enum', 'private', 'valid_chars', 'valid_chars_error'],
  text: ['language'],
  int: ['min', 'max', 'enum'],
  boolean: [],
  dict: ['attrs', 'additional_attrs'],
  list: ['items'],
  path: [], hostpath: [], hostpathdirectory: [], hostpathfile: [], uri: [],
  ipaddr: ['ipv4', 'ipv6', 'cidr'],
  cron: [],
};
const COMMON_KEYS = ['type', 'required', 'null', 'default', 'hidden', 'editable', 'immutable', 'show_if', 'subquestions', 'show_subquestions_if', '$ref', '$ui-ref', 'description'];
const KNOWN_REFS = new Set([
  'definitions/node_bind_ip', 'definitions/timezone', 'definitions/certificate', 'definitions/gpu_configuration', 'definitions/interface',
  'normalize/ix_volume', 'normalize/acl', 'normalize/interface_configuration', 'validations/container_image',
]);

function schemaErrors(schema: unknown, where: string, siblings: Set<string>): string[] {
  if (!isObject(schema)) return [`${where}: schema is missing`];
  const errors: string[] = [];
  const type = schema.type;
  if (typeof type !== 'string' || !(type in TYPE_KEYS)) return [`${where}: unknown schema type ${JSON.stringify(type)}`];
  const allowed = new Set([...COMMON_KEYS, ...TYPE_KEYS[type]!]);
  for (const k of Object.keys(schema)) if (!allowed.has(k)) errors.push(`${where}: key "${k}" is not allowed on type ${type}`);
  if (Array.isArray(schema.enum)) {
    schema.enum.forEach((e, i) => {
      if (!isObject(e) || Object.keys(e).sort().join(',') !== 'description,value') errors.push(`${where}: enum[${i}] must be exactly {value, description}`);
    });
    if ('default' in schema && !schema.enum.some((e) => isObject(e) && e.value === schema.default)) errors.push(`${where}: default ${JSON.stringify(schema.default)} is not in enum`);
  }
  if ('default' in schema && schema.default !== null) {
    const d = schema.default;
    const ok = type === 'int' ? Number.isInteger(d) : type === 'boolean' ? typeof d === 'boolean' : type === 'list' ? Array.isArray(d) : type === 'dict' ? isObject(d) : typeof d === 'string';
    if (!ok) errors.push(`${where}: default ${JSON.stringify(d)} is not a ${type}`);
    if (type === 'int' && typeof d === 'number') {
      if (typeof schema.min === 'number' && d < schema.min) errors.push(`${where}: default below min`);
      if (typeof schema.max === 'number' && d > schema.max) errors.push(`${where}: default above max`);
    }
  }
  if (schema.show_if !== undefined) {
    const ok = Array.isArray(schema.show_if) && schema.show_if.every((c) => Array.isArray(c) && c.length === 3 && typeof c[0] === 'string' && typeof c[1] === 'string');
    if (!ok) errors.push(`${where}: show_if must be a list of [field, operator, value]`);
    else for (const c of schema.show_if as Json[][]) if (!siblings.has(c[0] as string)) errors.push(`${where}: show_if refers to "${String(c[0])}", not a sibling field`);
  }
  if (schema.$ref !== undefined) {
    if (!Array.isArray(schema.$ref)) errors.push(`${where}: $ref must be a list`);
    else for (const r of schema.$ref) if (typeof r !== 'string' || !KNOWN_REFS.has(r)) errors.push(`${where}: unknown $ref ${JSON.stringify(r)}`);
  }
  if (type === 'dict') {
    if (!Array.isArray(schema.attrs)) errors.push(`${where}: dict needs attrs`);
    else errors.push(...questionListErrors(schema.attrs, where, null));
  }
  if (type === 'list') {
    if (!Array.isArray(schema.items) || schema.items.length === 0) errors.push(`${where}: list needs items`);
    else errors.push(...questionListErrors(schema.items, `${where}[]`, null));
  }
  return errors;
}

function questionListErrors(list: Json[], where: string, groups: Set<string> | null): string[] {
  const errors: string[] = [];
  const names = new Set<string>();
  const siblings = new Set(list.filter(isObject).map((q) => String(q.variable)));
  for (const q of list) {
    if (!isObject(q)) { errors.push(`${where}: a question is not a mapping`); continue; }
    const v = q.variable;
    const at = `${where}.${String(v)}`;
    if (typeof v !== 'string' || v === '') { errors.push(`${where}: question without variable`); continue; }
    if (v === 'ix_portals') errors.push(`${at}: variable name is reserved`);
    if (names.has(v)) errors.push(`${at}: duplicate variable`);
    names.add(v);
    if (typeof q.label !== 'string') errors.push(`${at}: label must be a string`);
    if (groups) {
      if (typeof q.group !== 'string' || !groups.has(q.group)) errors.push(`${at}: group ${JSON.stringify(q.group)} is not declared`);
    }
    errors.push(...schemaErrors(q.schema, at, siblings));
  }
  return errors;
}

export function questionsErrors(doc: unknown): string[] {
  if (!isObject(doc)) return ['questions.yaml is not a mapping'];
  const errors: string[] = [];
  const groups = Array.isArray(doc.groups) ? doc.groups : [];
  const groupNames = new Set<string>();
  for (const g of groups) {
    if (!isObject(g) || typeof g.name !== 'string' || typeof g.description !== 'string') errors.push('groups: each needs name and description');
    else groupNames.add(g.name);
  }
  if (groupNames.size === 0) errors.push('no groups');
  if (!Array.isArray(doc.questions) || doc.questions.length === 0) return [...errors, 'no questions'];
  errors.push(...questionListErrors(doc.questions, 'questions', groupNames));
  return errors;
}

/** Every `values.a.b` path in the template must be a question, an ix_values const/image or a system value. */
const SYSTEM_VALUES = new Set(['ix_volumes', 'ix_certificates', 'ix_context', 'release_name', 'images', 'consts']);

function pathExists(questions: Json[], path: string[]): boolean {
  const [head, ...rest] = path;
  const q = questions.find((x) => isObject(x) && x.variable === head);
  if (!isObject(q)) return false;
  if (rest.length === 0) return true;
  const schema = q.schema;
  if (isObject(schema) && schema.type === 'dict' && Array.isArray(schema.attrs)) return pathExists(schema.attrs, rest);
  return false;
}

export function templateErrors(template: string, questions: unknown, ixValues: unknown): string[] {
  const errors: string[] = [];
  if (!/^\{% set tpl = ix_lib\.base\.render\.Render\(values\) %\}/.test(template.trimStart())) errors.push('the template must start with {% set tpl = ix_lib.base.render.Render(values) %}');
  if (!/\{\{ tpl\.render\(\) \| tojson \}\}\s*$/.test(template)) errors.push('the template must end with {{ tpl.render() | tojson }}');
  // Block tags must nest: if/endif, for/endfor.
  const stack: string[] = [];
  for (const m of template.matchAll(/\{%-?\s*(\w+)/g)) {
    const tag = m[1]!;
    if (tag === 'if' || tag === 'for') stack.push(tag);
    else if (tag === 'endif' || tag === 'endfor') {
      const open = stack.pop();
      if (open !== tag.slice(3)) errors.push(`{% ${tag} %} closes ${open ? `{% ${open} %}` : 'nothing'}`);
    } else if ((tag === 'elif' || tag === 'else') && stack[stack.length - 1] !== 'if' && stack[stack.length - 1] !== 'for') errors.push(`{% ${tag} %} outside a block`);
  }
  if (stack.length > 0) errors.push(`unclosed {% ${stack.join(', ')} %}`);
  const qs = isObject(questions) && Array.isArray(questions.questions) ? questions.questions : [];
  const consts = isObject(ixValues) && isObject(ixValues.consts) ? ixValues.consts : {};
  for (const m of template.matchAll(/\bvalues((?:\.[A-Za-z_][A-Za-z0-9_]*)+)/g)) {
    const path = m[1]!.slice(1).split('.');
    if (path[0] === 'consts') {
      if (!(path[1]! in consts)) errors.push(`values.consts.${path[1]} is not in ix_values.yaml consts`);
    } else if (!SYSTEM_VALUES.has(path[0]!) && !pathExists(qs, path)) {
      errors.push(`values.${path.join('.')} is not a question`);
    }
  }
  for (const m of template.matchAll(/add_container\([^,]+,\s*"([^"]+)"\)/g)) {
    const images = isObject(ixValues) && isObject(ixValues.images) ? ixValues.images : {};
    if (!(m[1]! in images)) errors.push(`add_container uses image key "${m[1]}" missing from ix_values.yaml images`);
  }
  return errors;
}

/** Test values must give every required question (recursively through dicts) a value. */
export function testValuesErrors(values: unknown, questions: unknown): string[] {
  const errors: string[] = [];
  const walk = (qs: Json[], v: unknown, where: string) => {
    // show_if: a field hidden by its siblings' values (or their defaults) needs no answer.
    const siblingValue = (field: string): Json | undefined => {
      if (isObject(v) && field in v) return v[field];
      const q = qs.find((x) => isObject(x) && x.variable === field);
      return isObject(q) && isObject(q.schema) ? q.schema.default : undefined;
    };
    const shown = (schema: JsonObject) => !Array.isArray(schema.show_if) || schema.show_if.every((c) =>
      Array.isArray(c) && (c[1] === '=' ? siblingValue(String(c[0])) === c[2] : c[1] === '!=' ? siblingValue(String(c[0])) !== c[2] : true));
    for (const q of qs) {
      if (!isObject(q) || !isObject(q.schema)) continue;
      if (!shown(q.schema)) continue;
      const name = String(q.variable);
      const present = isObject(v) && name in v;
      const schema = q.schema;
      // A required field with an empty default (an API key, a user name) still needs an answer.
      const usableDefault = 'default' in schema && schema.default !== '' && schema.default !== null;
      if (schema.required === true && !present && !usableDefault) errors.push(`${where}${name} is required but missing`);
      if (schema.type === 'dict' && Array.isArray(schema.attrs)) walk(schema.attrs, present ? (v as JsonObject)[name] : {}, `${where}${name}.`);
    }
  };
  walk(isObject(questions) && Array.isArray(questions.questions) ? questions.questions : [], values, '');
  return errors;
}

/** The library summary of tests/fixtures/platforms/truenas-apps-library.json. */
export interface AppsLibrary { latest: string; hashes: Record<string, string>; api: Record<string, Record<string, string[] | string>>; itemSchema: { required: string[]; arraysOfStrings: string[]; strings: string[] } }

/** item.yaml (apps_validation APP_ITEM_JSON_SCHEMA): categories required; tags/screenshots lists of strings; icon_url a string. */
export function itemYamlErrors(doc: unknown, lib: AppsLibrary): string[] {
  if (!isObject(doc)) return ['item.yaml is not a mapping'];
  const errors: string[] = [];
  for (const k of lib.itemSchema.required) if (!(k in doc)) errors.push(`item.yaml: '${k}' is a required property`);
  for (const k of lib.itemSchema.arraysOfStrings) if (k in doc && (!Array.isArray(doc[k]) || (doc[k] as Json[]).some((x) => typeof x !== 'string'))) errors.push(`item.yaml: ${k} must be a list of strings`);
  for (const k of lib.itemSchema.strings) if (k in doc && typeof doc[k] !== 'string') errors.push(`item.yaml: ${k} must be a string`);
  return errors;
}

/**
 * The template against the library of its app.yaml's lib_version (apps_validation renders it with
 * templates/library/base_v<lib_version>; without lib_version nothing renders): a known version with
 * its hash, every call one the library's objects have (`ports.add_port` is private since 2.x:
 * `c1.add_port(port_config, dev_config)`), and the images its helpers need.
 */
export function libraryErrors(appYaml: unknown, template: string, ixValues: unknown, lib: AppsLibrary): string[] {
  if (!isObject(appYaml) || typeof appYaml.lib_version !== 'string') return ['app.yaml has no lib_version: no template renders ("No templates were rendered")'];
  const version = appYaml.lib_version;
  const api = lib.api[version];
  const errors: string[] = [];
  if (!api || !(version in lib.hashes)) return [`lib_version ${version} is not a library version of the catalog (latest ${lib.latest})`];
  if (appYaml.lib_version_hash !== lib.hashes[version]) errors.push(`lib_version_hash is not the hash of library ${version}`);
  // Which library object each template variable is.
  const kinds = new Map<string, string>([['tpl', 'tpl']]);
  for (const m of template.matchAll(/\{%-?\s*set\s+(\w+)\s*=\s*tpl\.(add_container|deps\.perms)\(/g)) kinds.set(m[1]!, m[2] === 'add_container' ? 'container' : 'perms');
  for (const m of template.matchAll(/\b(\w+)((?:\.\w+)+)\(/g)) {
    const kind = kinds.get(m[1]!);
    if (!kind) continue;
    const parts = m[2]!.slice(1).split('.');
    const method = parts.pop()!;
    const owner = [kind, ...parts].join('.');
    const methods = api[owner];
    if (!Array.isArray(methods)) errors.push(`${m[1]}${m[2]}(): library ${version} has no ${owner}`);
    else if (!methods.includes(method)) errors.push(`${m[1]}${m[2]}(): library ${version}'s ${owner} has no public ${method}`);
  }
  const images = isObject(ixValues) && isObject(ixValues.images) ? ixValues.images : {};
  const needs = api['perms.needsImage'];
  if ([...kinds.values()].includes('perms') && typeof needs === 'string' && !(needs in images)) errors.push(`the permissions container needs images.${needs} in ix_values.yaml`);
  return errors;
}
