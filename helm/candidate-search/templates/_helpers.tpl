{{/* The release's full name, cut to the 63 characters Kubernetes names allow. */}}
{{- define "cs.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* One service's resource name: <fullname>-<service>. Expects (dict "root" $ "name" $name). */}}
{{- define "cs.serviceName" -}}
{{- printf "%s-%s" (include "cs.fullname" .root | trunc 40 | trimSuffix "-") .name -}}
{{- end -}}

{{/* Labels of every object but the selector's; app.kubernetes.io/instance is the selector's. */}}
{{- define "cs.commonLabels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
app.kubernetes.io/part-of: {{ .Chart.Name }}
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

{{- define "cs.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{- define "cs.secretName" -}}
{{ .Values.secret.name | default (include "cs.fullname" .) }}
{{- end -}}

{{/* The address a gRPC service is reached at: its headless Service, every replica resolved. */}}
{{- define "cs.grpcAddress" -}}
{{ include "cs.serviceName" . }}:{{ (index .root.Values.services .name).grpcPort }}
{{- end -}}
