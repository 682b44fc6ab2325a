/**
 * The connect widget page (Resources, Widget URL; Events, "Widget events"; Endpoints,
 * "OAuth procedure for members", widget flows). Tiny, no external assets.
 *
 * Events are `{ type, mx: true, metadata }`. Transport: postMessage to the parent frame
 * (or opener), or with `is_mobile_webview` the location `{scheme}://{event path}?metadata={json}`
 * where the event path is the type without its `svc/` prefix (e.g.
 * `svcapp://connect/memberConnected?metadata=...`). Every event is also kept in
 * `window.__svcEvents` (and every webview location in `window.__svcLocations`) so that
 * browser tests can read them without a custom-scheme handler.
 *
 * Event types (the specification names them; payloads beyond the OAuth messages are
 * not shown, so these are the simulator's): `svc/connect/loaded`,
 * `svc/connect/stepChange` {previous, current} (steps: search, enterCreds, connecting,
 * mfa, oauth, connected, verifyExistingMember, error), `svc/connect/memberStatusUpdate`
 * {member_guid, connection_status}, `svc/connect/oauthRequested` {url, member_guid},
 * `svc/connect/memberConnected` {user_guid, member_guid},
 * `svc/connect/memberConnected/primaryAction` {user_guid, member_guid},
 * `svc/connect/memberDeleted` {user_guid, member_guid}, `svc/connect/oauthError`
 * {member_guid}, `svc/connect/backToSearch` {}, and the OAuth window's
 * `oauthComplete/success|error` relayed unchanged to the parent.
 *
 * Controls (selectors for browser scenarios): `input[name=username]`,
 * `input[name=password]`, `[data-action="connect"]`, `[data-action="oauth"]`,
 * `input[name=answer]`, `[data-action="answer"]`, `[data-action="primary"]`,
 * `[data-action="delete"]`, `[data-action="back"]`; `main[data-step]` shows the step.
 */
import { page, scriptJson } from './html.ts';

export interface WidgetPageConfig {
  token: string;
  userGuid: string;
  sessionGuid: string;
  widgetType: string;
  mobile: boolean;
  scheme: string;
  opensOauthWindow: boolean;
  payload: string | null;
  institutionCode: string | null;
  oauthInstitutionCode: string;
  credentialInstitutionCode: string;
  disableSearch: boolean;
  /** Events: "member deleted (`svc/connect/memberDeleted`)"; a fault renames it. */
  memberDeletedType?: string;
  /** Events: "member connected with primary action selected"; a fault leaves it out. */
  primaryActionEvent?: boolean;
  /** Events: "backToSearch (to be used with disable_search_institution)"; a fault leaves it out. */
  backToSearchEvent?: boolean;
  /** Events: "oauthError" (the simulator sends it when an OAuth member ends DENIED or HALTED); a fault leaves it out. */
  oauthErrorEvent?: boolean;
}

const SCRIPT = `(function(){
var cfg=__CFG__,base='/_sim/widget/'+cfg.token,member=null,step='search',lastStatus=null,timer=null,connectedSent=false;
window.__svcEvents=[];window.__svcLocations=[];
var main=document.querySelector('main');
function $(s){return document.querySelector(s)}
function send(type,metadata){metadata=Object.assign({},metadata||{});if(cfg.payload!==null)metadata.x_callback_payload=cfg.payload;
 var msg={type:type,mx:true,metadata:metadata};window.__svcEvents.push(msg);
 if(cfg.mobile){var loc=cfg.scheme+'://'+type.replace(/^svc\\//,'')+'?metadata='+encodeURIComponent(JSON.stringify(metadata));window.__svcLocations.push(loc);try{window.location.href=loc}catch(e){}return}
 var t=window.parent!==window?window.parent:window.opener;if(t)t.postMessage(msg,'*')}
function go(next){if(next===step)return;send('svc/connect/stepChange',{previous:step,current:next});step=next;main.setAttribute('data-step',next);
 document.querySelectorAll('section[data-step-view]').forEach(function(s){s.hidden=s.getAttribute('data-step-view')!==next})}
function api(method,path,body){return fetch(base+path,{method:method,headers:{'content-type':'application/json'},body:body?JSON.stringify(body):undefined}).then(function(r){return r.status===204?null:r.json()})}
function poll(){if(!member)return;api('GET','/members/'+member.guid).then(function(r){if(!r||!r.member)return;member=r.member;var s=member.connection_status;
 if(s!==lastStatus){lastStatus=s;send('svc/connect/memberStatusUpdate',{member_guid:member.guid,connection_status:s})}
 if(s==='CHALLENGED'){var c=(member.challenges||[])[0];$('#challenge-label').textContent=c?c.label+(c.options?' ('+c.options.map(function(o){return o.value}).join(', ')+')':''):'';go('mfa');return schedule()}
 if(s==='CONNECTED'){if(!connectedSent){connectedSent=true;send('svc/connect/memberConnected',{user_guid:cfg.userGuid,member_guid:member.guid})}go('connected');if(member.is_being_aggregated)schedule();return}
 if(s==='DENIED'||s==='HALTED'){if(member.is_oauth&&cfg.oauthErrorEvent)send('svc/connect/oauthError',{member_guid:member.guid});$('#error-text').textContent='Connection '+s;go('error');return}
 schedule()})}
function schedule(){clearTimeout(timer);timer=setTimeout(poll,100)}
function created(r){if(!r||!r.member){$('#error-text').textContent=(r&&r.error&&r.error.message)||'error';go('error');return null}member=r.member;lastStatus=null;connectedSent=false;return member}
$('[data-action="connect"]').addEventListener('click',function(){go('connecting');
 api('POST','/members',{institution_code:cfg.institutionCode||cfg.credentialInstitutionCode,username:$('input[name=username]').value,password:$('input[name=password]').value}).then(function(r){if(created(r))schedule()})});
$('[data-action="oauth"]').addEventListener('click',function(){go('oauth');
 api('POST','/members',{institution_code:cfg.oauthInstitutionCode,is_oauth:true}).then(function(r){if(!created(r))return;
  send('svc/connect/oauthRequested',{url:member.oauth_window_uri,member_guid:member.guid});
  if(cfg.opensOauthWindow)window.open(member.oauth_window_uri,'svc_oauth');schedule()})});
$('[data-action="answer"]').addEventListener('click',function(){if(!member)return;go('connecting');
 api('PUT','/members/'+member.guid+'/resume',{answer:$('input[name=answer]').value}).then(function(){schedule()})});
$('[data-action="primary"]').addEventListener('click',function(){if(member&&cfg.primaryActionEvent)send('svc/connect/memberConnected/primaryAction',{user_guid:cfg.userGuid,member_guid:member.guid})});
$('[data-action="delete"]').addEventListener('click',function(){if(!member)return;var g=member.guid;api('DELETE','/members/'+g).then(function(){send(cfg.memberDeletedType,{user_guid:cfg.userGuid,member_guid:g});member=null;go('search')})});
$('[data-action="back"]').addEventListener('click',function(){if(cfg.backToSearchEvent)send('svc/connect/backToSearch',{})});
window.addEventListener('message',function(e){var d=e.data;if(d&&typeof d.type==='string'&&d.type.indexOf('oauthComplete/')===0){window.__svcEvents.push(d);var t=window.parent!==window?window.parent:null;if(t)t.postMessage(d,'*');schedule()}});
send('svc/connect/loaded',{user_guid:cfg.userGuid,session_guid:cfg.sessionGuid,initial_step:'search'});
})();`;

export function widgetPage(cfg: WidgetPageConfig): string {
  const body = `<main data-step="search" data-widget-type="${cfg.widgetType}">
<h1>Connect an account</h1>
<section data-step-view="search">
<p>Bank with user name and password</p>
<input name="username" placeholder="User name" autocomplete="off"><input name="password" type="password" placeholder="Password" autocomplete="off">
<button data-action="connect">Connect</button>
<p>Bank with OAuth</p><button data-action="oauth">Connect with OAuth</button>
<p><button data-action="back"${cfg.disableSearch ? '' : ' hidden'}>Back to search</button></p>
</section>
<section data-step-view="connecting" hidden><p>Connecting...</p></section>
<section data-step-view="oauth" hidden><p>Waiting for the bank's authorization...</p></section>
<section data-step-view="mfa" hidden><p id="challenge-label"></p><input name="answer" autocomplete="off"><button data-action="answer">Continue</button></section>
<section data-step-view="connected" hidden><p>Connected.</p><button data-action="primary">Done</button><button data-action="delete">Delete connection</button></section>
<section data-step-view="error" hidden><p class="error" id="error-text"></p></section>
</main>`;
  const full = { memberDeletedType: 'svc/connect/memberDeleted', primaryActionEvent: true, backToSearchEvent: true, oauthErrorEvent: true, ...cfg };
  return page('Connect', body, SCRIPT.replace('__CFG__', scriptJson(full)));
}
