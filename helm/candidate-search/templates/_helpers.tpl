{{/* The chart's name, or nameOverride. */}}
{{- define "cs.name" -}}
{{- .Values.nameOverride | default .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The release's full name, cut to the 63 characters Kubernetes names allow. */}}
{{- define "cs.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := include "cs.name" . -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* One service's resource name: <fullname>-<service>. Expects (dict "root" $ "name" $name). */}}
{{- define "cs.serviceName" -}}
{{- printf "%s-%s" (include "cs.fullname" .root | trunc 40 | trimSuffix "-") .name -}}
{{- end -}}

{{/* Labels of every object but the selector's; app.kubernetes.io/instance is the selector's. */}}
{{- define "cs.commonLabels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
app.kubernetes.io/part-of: {{ include "cs.name" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Labels of an object of the whole release. */}}
{{- define "cs.labels" -}}
{{ include "cs.commonLabels" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/* Selects one service's pods. Expects (dict "root" $ "name" $name). */}}
{{- define "cs.selectorLabels" -}}
app.kubernetes.io/name: {{ .name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- end -}}

{{/* Labels of one service's objects. Expects (dict "root" $ "name" $name). */}}
{{- define "cs.serviceLabels" -}}
{{ include "cs.commonLabels" .root }}
{{ include "cs.selectorLabels" . }}
{{- end -}}

{{- define "cs.image" -}}
{{- $tag := .Values.image.tag | default .Chart.AppVersion -}}
{{- if .Values.image.digest -}}
{{ .Values.image.repository }}:{{ $tag }}@{{ .Values.image.digest }}
{{- else -}}
{{ .Values.image.repository }}:{{ $tag }}
{{- end -}}
{{- end -}}

{{- define "cs.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{ .Values.serviceAccount.name | default (include "cs.fullname" .) }}
{{- else -}}
{{ .Values.serviceAccount.name | default "default" }}
{{- end -}}
{{- end -}}

{{/* The Secret the pods read: existingSecret, else the chart's own. */}}
{{- define "cs.secretName" -}}
{{ .Values.secret.existingSecret | default (include "cs.fullname" .) }}
{{- end -}}

{{/*
The Secret settings each program reads, and no others (DENSE_API_KEY only with a hosted dense
model). Expects (dict "root" $ "name" $name). Optional ones are referenced only when the
chart's Secret has them, or as optional keys of an existing Secret.
*/}}
{{- define "cs.secretSettings" -}}
{{- $bySvc := dict
  "gateway" (list "DATABASE_URL" "REDIS_URL" "ADMIN_TOKEN" "PRESIGN_SECRET" "S3_ACCESS_KEY" "S3_SECRET_KEY")
  "ingestion" (list "DATABASE_URL" "S3_ACCESS_KEY" "S3_SECRET_KEY")
  "search-orchestrator" (list "DATABASE_URL")
  "dense" (ternary (list "QDRANT_API_KEY" "DENSE_API_KEY") (list "QDRANT_API_KEY") (include "cs.denseModelHosted" .root | eq "true"))
  "sparse" (list)
  "reranker" (list "RERANKER_API_KEY")
  "migrate" (list "DATABASE_URL") -}}
{{- index $bySvc .name | toJson -}}
{{- end -}}

{{- define "cs.optionalSecretSettings" -}}
{{- list "QDRANT_API_KEY" "RERANKER_API_KEY" "DENSE_API_KEY" | toJson -}}
{{- end -}}

{{/* env entries for one program's Secret settings. Expects (dict "root" $ "name" $name). */}}
{{- define "cs.secretEnv" -}}
{{- $root := .root -}}
{{- $optional := include "cs.optionalSecretSettings" . | fromJsonArray -}}
{{- range include "cs.secretSettings" . | fromJsonArray }}
{{- $isOptional := has . $optional -}}
{{- if or $root.Values.secret.existingSecret (not $isOptional) (index $root.Values.secret.values .) }}
- name: {{ . }}
  valueFrom:
    secretKeyRef:
      name: {{ include "cs.secretName" $root }}
      key: {{ index $root.Values.secret.keys . }}
      {{- if $isOptional }}
      optional: true
      {{- end }}
{{- end }}
{{- end }}
{{- end -}}

{{/*
A checksum of the Secret settings one program reads, so that a change rolls its pods and only
its pods. With existingSecret the chart cannot see the values: only the Secret's name and keys count.
*/}}
{{- define "cs.secretChecksum" -}}
{{- $root := .root -}}
{{- $seen := dict "secret" (include "cs.secretName" $root) -}}
{{- range include "cs.secretSettings" . | fromJsonArray }}
{{- $_ := set $seen . (ternary (index $root.Values.secret.keys .) (index $root.Values.secret.values . | default "") (not (empty $root.Values.secret.existingSecret))) -}}
{{- end }}
{{- toJson $seen | sha256sum -}}
{{- end -}}

{{/* The address a gRPC service is reached at: its headless Service, every replica resolved. */}}
{{- define "cs.grpcAddress" -}}
{{ include "cs.serviceName" . }}:{{ (index .root.Values.services .name).grpcPort }}
{{- end -}}

{{/* Milliseconds (a string or a number) to whole seconds, rounded up. */}}
{{- define "cs.ceilSeconds" -}}
{{- div (add (int .) 999) 1000 -}}
{{- end -}}

{{/* The pod's grace: the preStop pause, the drain, work in hand and the close, with a margin. Expects (dict "root" $ "name" $name). */}}
{{- define "cs.terminationGraceSeconds" -}}
{{- $svc := index .root.Values.services .name -}}
{{- $env := merge (dict) ($svc.env | default dict) .root.Values.env -}}
{{- $lc := .root.Values.lifecycle -}}
{{- add $lc.preStopSleepSeconds (include "cs.ceilSeconds" ($env.DRAIN_MS | default "5000")) (include "cs.ceilSeconds" ($env.SHUTDOWN_GRACE_MS | default "7000")) 15 $lc.terminationMarginSeconds -}}
{{- end -}}

{{/* The pods' security context and the restricted container one, shared by every pod. */}}
{{- define "cs.podSecurity" -}}
automountServiceAccountToken: false
serviceAccountName: {{ include "cs.serviceAccountName" . }}
securityContext:
  {{- toYaml .Values.podSecurityContext | nindent 2 }}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* Where the dense pods see the ONNX model folder (DENSE_MODEL=onnx:<this>). */}}
{{- define "cs.denseModelDir" -}}
/models/dense
{{- end -}}

{{/*
Where they see the next model's folder (DENSE_MODEL_NEXT=onnx:<this>). An onnx model's id is
its folder's name and its digest: this one ends in "dense" too, so that once the operator moves
it to denseModel (/models/dense) the service still knows the vectors it made.
*/}}
{{- define "cs.denseModelNextDir" -}}
/models/next/dense
{{- end -}}

{{/* "true" when the current or the next dense model is a hosted API (its key, its egress). */}}
{{- define "cs.denseModelHosted" -}}
{{- or (eq .Values.denseModel.kind "http") (eq .Values.denseModelNext.kind "http") -}}
{{- end -}}

{{/*
The dense pods' ONNX model folders: a volume, a mount point and the values block of each of
denseModel and denseModelNext that is onnx, as a JSON list.
*/}}
{{- define "cs.denseModelFolders" -}}
{{- $folders := list -}}
{{- if eq .Values.denseModel.kind "onnx" -}}
{{- $folders = append $folders (dict "volume" "dense-model" "dir" (include "cs.denseModelDir" .) "onnx" .Values.denseModel.onnx) -}}
{{- end -}}
{{- if eq .Values.denseModelNext.kind "onnx" -}}
{{- $folders = append $folders (dict "volume" "dense-model-next" "dir" (include "cs.denseModelNextDir" .) "onnx" .Values.denseModelNext.onnx) -}}
{{- end -}}
{{- toJson $folders -}}
{{- end -}}

{{/* Refuses an onnx or http model block without what its kind needs. Expects (dict "at" "denseModel" "m" $block). */}}
{{- define "cs.denseModelSourceCheck" -}}
{{- $at := .at -}}
{{- $m := .m -}}
{{- if eq $m.kind "onnx" -}}
{{- if eq (empty $m.onnx.existingClaim) (empty $m.onnx.image.repository) -}}
{{- fail (printf "%s.kind onnx: set one of %s.onnx.existingClaim (a PVC holding the model folder) and %s.onnx.image.repository (an image holding it)" $at $at $at) -}}
{{- end -}}
{{- else if eq $m.kind "http" -}}
{{- if not $m.http.url }}{{ fail (printf "%s.kind http: %s.http.url is required (the embeddings API's base URL)" $at $at) }}{{ end -}}
{{- if not $m.http.dimensions }}{{ fail (printf "%s.kind http: %s.http.dimensions is required (the model's vector length)" $at $at) }}{{ end -}}
{{- if and (ne $m.http.provider "tei") (not $m.http.model) }}{{ fail (printf "%s.http.model is required with provider %s (only tei serves one model)" $at $m.http.provider) }}{{ end -}}
{{- end -}}
{{- end -}}

{{/* An onnx block's folder source, to tell two models' folders apart. */}}
{{- define "cs.denseModelSource" -}}
{{- if .existingClaim -}}
claim {{ .existingClaim }}/{{ .subPath }}
{{- else -}}
image {{ .image.repository }}:{{ .image.tag }}{{ .image.path }}
{{- end -}}
{{- end -}}

{{/*
Refuses a denseModel the dense service could not start with, saying which value to set; and
DENSE_* settings in env, which would reach pods that have no model folder (and fight denseModel).
*/}}
{{- define "cs.denseModelCheck" -}}
{{- $m := .Values.denseModel -}}
{{- $next := .Values.denseModelNext -}}
{{- include "cs.denseModelSourceCheck" (dict "at" "denseModel" "m" $m) -}}
{{- include "cs.denseModelSourceCheck" (dict "at" "denseModelNext" "m" $next) -}}
{{- /* The dense service refuses these at start too; here the operator learns before a rollout. */ -}}
{{- if eq $m.kind $next.kind -}}
{{- if or (eq $m.kind "builtin") (and (eq $m.kind "onnx") (eq (include "cs.denseModelSource" $m.onnx) (include "cs.denseModelSource" $next.onnx))) -}}
{{- fail (printf "denseModelNext names denseModel's own model (%s): set denseModelNext to the model to move to, or kind none" $m.kind) -}}
{{- end -}}
{{- if eq $m.kind "http" -}}
{{- fail "denseModel and denseModelNext are both http: the dense service reads one set of DENSE_API_* settings (URL, model, dimensions) for both models, so two hosted models cannot run side by side; move through builtin or an onnx model (helm/README.md, \"Changing the dense model\")" -}}
{{- end -}}
{{- end -}}
{{- $envs := dict "env" .Values.env -}}
{{- range $name, $svc := .Values.services }}{{ $_ := set $envs (printf "services.%s.env" $name) ($svc.env | default dict) }}{{ end -}}
{{- range $where, $env := $envs }}
{{- range $key, $_ := $env }}
{{- if and (hasPrefix "DENSE_" $key) (ne $key "DENSE_GRPC_ADDRESS") }}
{{- fail (printf "%s.%s: the dense encoder's settings are denseModel's (helm/README.md, \"Choosing the dense model\")" $where $key) }}
{{- end }}
{{- end }}
{{- end -}}
{{- end -}}

{{/* A model block's DENSE_MODEL form. Expects (dict "m" $block "dir" $folder). */}}
{{- define "cs.denseModelSpec" -}}
{{- if eq .m.kind "onnx" -}}
onnx:{{ .dir }}
{{- else if eq .m.kind "http" -}}
http:{{ .m.http.provider }}
{{- else -}}
builtin
{{- end -}}
{{- end -}}

{{/*
The dense container's DENSE_* settings, from denseModel and denseModelNext (the API key comes
with the Secret's). The kinds' settings are one set the two models share: the onnx ones are
denseModel's, the API's those of whichever model is http (the check allows only one).
*/}}
{{- define "cs.denseModelEnv" -}}
{{- $m := .Values.denseModel -}}
{{- $next := .Values.denseModelNext -}}
{{- $kinds := list $m.kind $next.kind -}}
{{- $http := ternary $next.http $m.http (eq $next.kind "http") }}
- { name: DENSE_MODEL, value: {{ include "cs.denseModelSpec" (dict "m" $m "dir" (include "cs.denseModelDir" .)) | quote }} }
{{- if ne $next.kind "none" }}
- { name: DENSE_MODEL_NEXT, value: {{ include "cs.denseModelSpec" (dict "m" $next "dir" (include "cs.denseModelNextDir" .)) | quote }} }
{{- end }}
{{- if or (has "onnx" $kinds) (has "http" $kinds) }}
{{- if has "onnx" $kinds }}
- { name: DENSE_ONNX_MAX_TOKENS, value: {{ $m.onnx.maxTokens | int | quote }} }
- { name: DENSE_ONNX_THREADS, value: {{ $m.onnx.threads | int | quote }} }
{{- end }}
{{- if has "http" $kinds }}
- { name: DENSE_API_URL, value: {{ $http.url | quote }} }
{{- with $http.model }}
- { name: DENSE_API_MODEL, value: {{ . | quote }} }
{{- end }}
- { name: DENSE_API_DIMENSIONS, value: {{ $http.dimensions | int | quote }} }
- { name: DENSE_API_TIMEOUT_MS, value: {{ $http.timeoutMs | int | quote }} }
- { name: DENSE_API_ATTEMPTS, value: {{ $http.attempts | int | quote }} }
{{- end }}
- { name: DENSE_BATCH_SIZE, value: {{ $m.batchSize | int | quote }} }
{{- /* null: the model folder's prefixes; a string, even empty, replaces them. */}}
{{- if kindIs "string" $m.queryPrefix }}
- { name: DENSE_QUERY_PREFIX, value: {{ $m.queryPrefix | quote }} }
{{- end }}
{{- if kindIs "string" $m.passagePrefix }}
- { name: DENSE_PASSAGE_PREFIX, value: {{ $m.passagePrefix | quote }} }
{{- end }}
{{- end }}
{{- end -}}
